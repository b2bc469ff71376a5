package main

import (
	"bufio"
	"os"
	"strings"
)

// callCounts counts the fake's request log lines ("runExperiment 200
// 1.2ms") of the operations given, by operation and status.
func callCounts(logPath string, ops ...string) (map[string]map[string]int, error) {
	f, err := os.Open(logPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]map[string]int{}
	for _, op := range ops {
		out[op] = map[string]int{}
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 3 && out[fields[0]] != nil {
			out[fields[0]][fields[1]]++
		}
	}
	return out, sc.Err()
}
