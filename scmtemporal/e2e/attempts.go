package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/interceptor"
)

// attempt is a line of the attempts journal: an activity attempt began
// (End empty) or ended (End "ok" or the error).
type attempt struct {
	Workflow string    `json:"workflow"`
	Activity string    `json:"activity"`
	ID       string    `json:"id"` // the activity's id within the workflow
	Attempt  int32     `json:"attempt"`
	Worker   string    `json:"worker"`
	At       time.Time `json:"at"`
	End      string    `json:"end,omitempty"`
}

// key names one attempt: its activity, attempt number and worker.
func (a attempt) key() string { return fmt.Sprintf("%s#%d@%s", a.ID, a.Attempt, a.Worker) }

// journal appends attempts to a file shared by the workers, a line each
// (O_APPEND: lines of this size are not interleaved), synced, so that a
// worker killed right after an attempt began has left its line.
type journal struct {
	mu     sync.Mutex
	f      *os.File
	worker string
}

func openJournal(path, worker string) (*journal, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &journal{f: f, worker: worker}, nil
}

func (j *journal) write(ctx context.Context, end string) {
	info := activity.GetInfo(ctx)
	line, _ := json.Marshal(attempt{Workflow: info.WorkflowExecution.ID, Activity: info.ActivityType.Name, ID: info.ActivityID,
		Attempt: info.Attempt, Worker: j.worker, At: time.Now(), End: end})
	j.mu.Lock()
	defer j.mu.Unlock()
	_, _ = j.f.Write(append(line, '\n'))
	_ = j.f.Sync()
}

// journalInterceptor writes a journal line when each activity attempt
// begins and when it ends.
type journalInterceptor struct {
	interceptor.WorkerInterceptorBase
	j *journal
}

func (w *journalInterceptor) InterceptActivity(ctx context.Context, next interceptor.ActivityInboundInterceptor) interceptor.ActivityInboundInterceptor {
	return &activityJournal{ActivityInboundInterceptorBase: interceptor.ActivityInboundInterceptorBase{Next: next}, j: w.j}
}

type activityJournal struct {
	interceptor.ActivityInboundInterceptorBase
	j *journal
}

func (a *activityJournal) ExecuteActivity(ctx context.Context, in *interceptor.ExecuteActivityInput) (any, error) {
	a.j.write(ctx, "")
	res, err := a.Next.ExecuteActivity(ctx, in)
	end := "ok"
	if err != nil {
		end = err.Error()
	}
	a.j.write(ctx, end)
	return res, err
}

// readJournal reads every attempt of the journal, by workflow id.
func readJournal(path string) (map[string][]attempt, error) {
	f, err := os.Open(path)
	if err != nil {
		if os.IsNotExist(err) {
			return map[string][]attempt{}, nil
		}
		return nil, err
	}
	defer f.Close()
	out := map[string][]attempt{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var a attempt
		if json.Unmarshal(sc.Bytes(), &a) == nil {
			out[a.Workflow] = append(out[a.Workflow], a)
		}
	}
	return out, sc.Err()
}

// attemptStats sums the journal up: attempts begun, those that were
// retries (attempt > 1), and those that never ended (their worker was
// killed).
type attemptStats struct {
	begun, retries, cut int
	byActivity          map[string]int // retries by activity type
	// spent is the time the attempts that ended took, and timed how many
	// they were, by activity type: where an item's time goes.
	spent map[string]time.Duration
	timed map[string]int
}

func summarizeAttempts(byWorkflow map[string][]attempt) attemptStats {
	s := attemptStats{byActivity: map[string]int{}, spent: map[string]time.Duration{}, timed: map[string]int{}}
	for _, list := range byWorkflow {
		ended := map[string]bool{}
		endAt := map[string]time.Time{}
		for _, a := range list {
			if a.End != "" {
				ended[a.key()], endAt[a.key()] = true, a.At
			}
		}
		for _, a := range list {
			if a.End != "" {
				continue
			}
			if at, ok := endAt[a.key()]; ok {
				s.spent[a.Activity] += at.Sub(a.At)
				s.timed[a.Activity]++
			}
			s.begun++
			if a.Attempt > 1 {
				s.retries++
				s.byActivity[a.Activity]++
			}
			if !ended[a.key()] {
				s.cut++
			}
		}
	}
	return s
}
