package facade

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// The prefixes of the resume tokens of a run: the kind and the version of
// the evidence that follows (base64url JSON). This release makes version 3,
// which names its server and ends in a checksum; it reads version 2 and
// the first release's JSON too.
const (
	runTokenPrefix   = "scmrun.3."
	runTokenPrefixV2 = "scmrun.2."
)

// maxResumeToken bounds a token read back: a scenario's listed runs are
// its largest part (about 12 bytes each).
const maxResumeToken = 16 << 20

// tokenChecksumLen is how many bytes of SHA-256 a version 3 token ends
// with: a check that the token was not edited or cut, not a secret.
const tokenChecksumLen = 12

// maxClockSkew is how far in the future, on this client's clock, a token's
// start may be: the clocks of the process that made it and of this one
// may differ by that much.
const maxClockSkew = 5 * time.Minute

// runToken is the evidence of a start as a token carries it.
type runToken struct {
	// Server is the server the start was made on (host[:port]/path), in
	// version 3.
	Server     string             `json:"server,omitempty"`
	RcID       ids.RcID           `json:"rcId"`
	ScenarioID ids.ScenarioID     `json:"scenarioId"`
	Type       gen.ExperimentType `json:"type"`
	Listed     []ids.RunID        `json:"listed"`
	Started    time.Time          `json:"started"`
	// The status before the start: ended, and when that end's kind is
	// known its outcome ("succeeded", "failed", "stopped", "cancelled") and
	// text; marked when genericState or step were not IDLE. A status that
	// showed no end (ended false) is the unknown activity of
	// [RunActivity]: the configuration had never run, or its first run was
	// under way.
	Ended   bool   `json:"ended"`
	Outcome string `json:"outcome,omitempty"`
	Text    string `json:"text,omitempty"`
	Marked  bool   `json:"marked,omitempty"`
	// Decided is the end the wait decided, once it did (version 3).
	Decided *decidedToken `json:"decided,omitempty"`
}

// decidedToken is a decided end as a token carries it: its evidence, and
// the run's entry among the scenario's runs when it is listed.
type decidedToken struct {
	By    EndEvidence `json:"by"`
	Entry *entryToken `json:"entry,omitempty"`
}

// entryToken is the listed run of a decided end.
type entryToken struct {
	ID         ids.RunID              `json:"id"`
	ResultID   ids.ExperimentResultID `json:"rcId"`
	Name       string                 `json:"name"`
	HasOptions bool                   `json:"hasOptions,omitempty"`
}

// legacyOrigin is the evidence of the first release, kept as JSON in batch
// state files (runOrigin): whether an end showed before the start, not
// which.
type legacyOrigin struct {
	RcID        ids.RcID           `json:"rcId"`
	ScenarioID  ids.ScenarioID     `json:"scenarioId"`
	Type        gen.ExperimentType `json:"type"`
	Listed      []ids.RunID        `json:"listed"`
	EndedBefore bool               `json:"endedBefore"`
	Started     time.Time          `json:"started"`
}

// weakLegacy says why evidence of the first release is weaker.
const weakLegacy = "recorded by an earlier release, which kept whether an end showed before the start but not which: a start whose answer was lost is more often answered unknown"

// ResumeToken returns the run's evidence of its start as an opaque,
// versioned token: keep it (in a state file, a workflow's state) before the
// start is sent, and rebuild the run from it in any process with
// [Client.ResumeRunFromToken], to wait for it, find its result or settle a
// start whose answer was lost ([ExperimentsService.Began]). Taken once the wait decided
// the run's end, it carries that end and its entry, so that a resumed run
// does not decide again. The token names the server the start was made on
// and ends in a checksum: it is refused for another server, and when
// edited. A Run made from its rcId alone has no start to resume, and
// fails with a [*ValidationError].
func (r *Run) ResumeToken() (string, error) {
	o := r.origin()
	if o == nil {
		return "", r.noOrigin("Run.ResumeToken", "it has no resume token")
	}
	tok := runToken{Server: cmpOr(o.Server, r.t.c.server()), RcID: o.RcID, ScenarioID: o.ScenarioID, Type: o.Type, Listed: o.Listed, Started: o.Started,
		Ended: o.Before.Ended, Text: o.Before.Text, Marked: o.Before.Marked, Decided: r.decidedToken()}
	if o.Before.Ended && o.Before.KindKnown {
		tok.Outcome = o.Before.Outcome.String()
	}
	if tok.Listed == nil {
		tok.Listed = []ids.RunID{}
	}
	b, err := json.Marshal(tok)
	if err != nil {
		return "", err
	}
	body := runTokenPrefix + base64.RawURLEncoding.EncodeToString(b)
	return body + "." + tokenChecksum(body), nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// decidedToken is the Run's decided end as its token carries it, nil
// before the wait decided it.
func (r *Run) decidedToken() *decidedToken {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ev.endedBy == "" || r.ev.endedBy == EndUnchecked {
		return nil
	}
	d := &decidedToken{By: r.ev.endedBy}
	if e := r.ev.entry; e != nil {
		d.Entry = &entryToken{ID: e.Id, ResultID: e.RcId, Name: e.Name, HasOptions: e.HasOptions}
	}
	return d
}

// tokenChecksum is the checksum a version 3 token ends with: SHA-256 of
// everything before it, cut to tokenChecksumLen bytes, base64url.
func tokenChecksum(body string) string {
	sum := sha256.Sum256([]byte(body))
	return base64.RawURLEncoding.EncodeToString(sum[:tokenChecksumLen])
}

// ResumeRunFromToken rebuilds a run from its [Run.ResumeToken]: its wait,
// result and [ExperimentsService.Began] tell it apart from earlier runs as they did in the
// process that started it. A token of this release is refused when it was
// made for another server than this client's (unless [WithFormerServers]
// names that server), when it was edited or cut (its checksum), or when it
// holds values no start records: an id that is not positive, an unknown
// experiment type, a start in the future (more than 5 minutes on this
// client's clock), a field given twice. It also reads the tokens of
// earlier releases, bound to no server and without a checksum, so weaker
// (an edit is found only when it makes a value impossible): version 2,
// and the first release's evidence, the JSON object that batch state files
// kept as runOrigin, whose [RunEvidence].Weak says what it lacks. A token
// it cannot read (corrupt, cut, edited, of another kind or of a newer
// release, holding values no start records, or made for another server) is
// refused with a [*ValidationError] (Field "token (N bytes)") that
// says its length and what is wrong, and never quotes it (a wrong paste may
// hold a key). It sends nothing.
func (c *Client) ResumeRunFromToken(token string) (*Run, error) {
	o, decided, weak, err := parseRunToken(token)
	if err == nil {
		err = c.checkToken(o)
	}
	if err != nil {
		return nil, badToken("ResumeRunFromToken", token, err)
	}
	r := c.runFrom(o, weak)
	if decided != nil {
		r.ev.endedBy = decided.By
		if e := decided.Entry; e != nil {
			r.ev.entry = &gen.ApiBasicRun{Id: e.ID, RcId: e.ResultID, Name: e.Name, HasOptions: e.HasOptions, ScenarioId: o.ScenarioID, Type: o.Type}
		}
	}
	return r, nil
}

// checkToken refuses evidence this client must not resume: made on
// another server, or started in the future.
func (c *Client) checkToken(o *origin) error {
	if o.Server != "" && o.Server != c.server() && !c.formerServer(o.Server) {
		return fmt.Errorf("it was made for the server %s, not this client's (%s); a server that moved is named with WithFormerServers", o.Server, c.server())
	}
	if o.Started.After(c.now().Add(maxClockSkew)) {
		return fmt.Errorf("its start is %v ahead of this client's clock, more than the %v two clocks may differ by", o.Started.Sub(c.now()).Round(time.Second), maxClockSkew)
	}
	return nil
}

// RunSubject is what a resume token is the run of ([TokenSubject]).
type RunSubject struct {
	RcID       ids.RcID
	ScenarioID ids.ScenarioID
	Type       gen.ExperimentType
	// Started is when the start was sent (or prepared, for a token kept
	// before the send), on the clock of the process that made the token.
	Started time.Time
}

// String names the subject: "rcId 10303 (SIMULATION of scenario 103)".
func (s RunSubject) String() string {
	return fmt.Sprintf("rcId %d (%s of scenario %d)", s.RcID, s.Type, s.ScenarioID)
}

// TokenSubject reads what a resume token is the run of, so that a program
// keeping tokens (a batch's state, a workflow's) can refuse one that does
// not belong to its item, naming both. It checks the token as
// [Client.ResumeRunFromToken] does, but for the server and the clock,
// which need a client. A token it cannot read fails matching
// [ErrValidation], without quoting it.
func TokenSubject(token string) (RunSubject, error) {
	o, _, _, err := parseRunToken(token)
	if err != nil {
		return RunSubject{}, badToken("TokenSubject", token, err)
	}
	return RunSubject{RcID: o.RcID, ScenarioID: o.ScenarioID, Type: o.Type, Started: o.Started}, nil
}

// badToken is the error of a token op cannot read, saying its length and
// what is wrong, never quoting it (a wrong paste may hold a key).
func badToken(op, token string, why error) error {
	return &ValidationError{Operation: op, Field: fmt.Sprintf("token (%d bytes)", len(token)), Reason: fmt.Sprintf("not a run's resume token this client reads: %v", why)}
}

// parseRunToken reads a token of any version this release reads.
func parseRunToken(token string) (*origin, *decidedToken, string, error) {
	switch {
	case len(token) > maxResumeToken:
		return nil, nil, "", fmt.Errorf("longer than %d bytes", maxResumeToken)
	case strings.HasPrefix(token, runTokenPrefix):
		return parseV3(token)
	case strings.HasPrefix(token, runTokenPrefixV2):
		tok, err := decodeToken(token[len(runTokenPrefixV2):])
		if err != nil {
			return nil, nil, "", err
		}
		if tok.Server != "" || tok.Decided != nil {
			return nil, nil, "", errors.New("a version 2 token holds fields of version 3")
		}
		o, weak, err := tok.origin()
		return o, nil, weak, err
	case strings.HasPrefix(strings.TrimSpace(token), "{"):
		var old legacyOrigin
		if err := strictJSON([]byte(token), &old); err != nil {
			return nil, nil, "", err
		}
		o, weak, err := old.origin()
		return o, nil, weak, err
	case strings.HasPrefix(token, "scmrun."):
		return nil, nil, "", fmt.Errorf("of another version: this release reads %q and %q", runTokenPrefix, runTokenPrefixV2)
	}
	return nil, nil, "", fmt.Errorf("it does not begin with %q", runTokenPrefix)
}

// parseV3 reads a version 3 token: its checksum first, then its evidence,
// which must name a server.
func parseV3(token string) (*origin, *decidedToken, string, error) {
	dot := strings.LastIndexByte(token, '.')
	if dot < len(runTokenPrefix) {
		return nil, nil, "", errors.New("it has no checksum")
	}
	if body, sum := token[:dot], token[dot+1:]; sum != tokenChecksum(body) {
		return nil, nil, "", errors.New("its checksum does not match its content: it was edited or cut")
	}
	tok, err := decodeToken(token[len(runTokenPrefix):dot])
	if err != nil {
		return nil, nil, "", err
	}
	if tok.Server == "" {
		return nil, nil, "", errors.New("it names no server")
	}
	o, weak, err := tok.origin()
	if err != nil {
		return nil, nil, "", err
	}
	if err := tok.Decided.check(o); err != nil {
		return nil, nil, "", err
	}
	return o, tok.Decided, weak, nil
}

// decodeToken decodes the base64url JSON evidence of a token.
func decodeToken(b64 string) (runToken, error) {
	var tok runToken
	b, err := base64.RawURLEncoding.DecodeString(b64)
	if err != nil {
		return tok, errors.New("its evidence is not base64url")
	}
	return tok, strictJSON(b, &tok)
}

// strictJSON decodes one JSON object with no unknown fields, no key given
// twice at any level, and nothing after it. Its errors never quote the
// input.
func strictJSON(b []byte, v any) error {
	if err := noDuplicateKeys(b); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeProblem(err)
	}
	if dec.More() {
		return errors.New("its evidence has data after its end")
	}
	return nil
}

// decodeProblem says what is wrong with evidence that does not decode,
// without quoting it: where it stops being JSON, or which field of the
// evidence has a value of the wrong type.
func decodeProblem(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Errorf("its evidence is not JSON at byte %d", syntax.Offset)
	case errors.As(err, &typ) && typ.Field != "":
		return fmt.Errorf("its evidence's field %s is not a %s", typ.Field, typ.Type)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("its evidence is cut")
	}
	return errors.New("its evidence does not decode: an unknown field, or a value of the wrong form")
}

// noDuplicateKeys refuses JSON that gives a key twice in one object, at
// any depth: a decoder keeps the last, so an edit could hide behind the
// first.
func noDuplicateKeys(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	type frame struct {
		keys    map[string]bool // nil for an array
		wantKey bool
	}
	var stack []*frame
	valueDone := func() {
		if n := len(stack); n > 0 && stack[n-1].keys != nil {
			stack[n-1].wantKey = true
		}
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return decodeProblem(err)
		}
		top := (*frame)(nil)
		if n := len(stack); n > 0 {
			top = stack[n-1]
		}
		if key, ok := tok.(string); ok && top != nil && top.wantKey {
			if top.keys[key] {
				return fmt.Errorf("its evidence gives a field twice (at depth %d)", len(stack))
			}
			top.keys[key], top.wantKey = true, false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{keys: map[string]bool{}, wantKey: true})
		case json.Delim('['):
			stack = append(stack, &frame{})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			valueDone()
		default:
			valueDone()
		}
	}
}

func (t runToken) origin() (*origin, string, error) {
	o := &origin{Server: t.Server, RcID: t.RcID, ScenarioID: t.ScenarioID, Type: t.Type, Listed: t.Listed, Started: t.Started,
		Before: priorStatus{Ended: t.Ended, Text: t.Text, Marked: t.Marked, KindKnown: true}}
	if t.Ended {
		out, ok := outcomeNamed(t.Outcome)
		if !ok && t.Outcome != "" {
			return nil, "", errors.New("its outcome before the start is not an end")
		}
		o.Before.Outcome, o.Before.KindKnown = out, ok
	}
	if err := o.check(); err != nil {
		return nil, "", err
	}
	if !o.Before.KindKnown {
		return o, weakLegacy, nil
	}
	return o, "", nil
}

func (t legacyOrigin) origin() (*origin, string, error) {
	// Marked is unknown: genericState is not taken as evidence.
	o := &origin{RcID: t.RcID, ScenarioID: t.ScenarioID, Type: t.Type, Listed: t.Listed, Started: t.Started,
		Before: priorStatus{Ended: t.EndedBefore, KindKnown: !t.EndedBefore, Marked: true}}
	if err := o.check(); err != nil {
		return nil, "", err
	}
	if t.EndedBefore {
		return o, weakLegacy, nil
	}
	return o, "", nil
}

// outcomeNamed is the end an Outcome's String names.
func outcomeNamed(name string) (Outcome, bool) {
	for _, o := range []Outcome{Succeeded, Failed, Stopped, Cancelled} {
		if o.String() == name {
			return o, true
		}
	}
	return Pending, false
}

// check refuses evidence that no start recorded.
func (o *origin) check() error {
	switch {
	case o.RcID <= 0:
		return fmt.Errorf("its rcId %d is not an id", o.RcID)
	case o.ScenarioID <= 0:
		return fmt.Errorf("its scenarioId %d is not an id", o.ScenarioID)
	case o.Type == "":
		return errors.New("it has no experiment type")
	case !o.Type.Valid():
		return errors.New("its experiment type is none of the reference's")
	case o.Started.IsZero():
		return errors.New("it has no start time")
	case len(o.Before.Text) > maxEvidenceText:
		return fmt.Errorf("its status text is longer than the %d bytes a start keeps", maxEvidenceText)
	}
	for i, id := range o.Listed {
		if id <= 0 {
			return fmt.Errorf("its listed run %d has the id %d, which is not an id", i+1, id)
		}
	}
	return nil
}

// check refuses a decided end that no wait decided.
func (d *decidedToken) check(o *origin) error {
	switch {
	case d == nil:
		return nil
	case !knownEndEvidence(d.By):
		return errors.New("its decided end has evidence of no known kind")
	case d.Entry == nil:
		return nil
	case d.Entry.ID <= 0 || d.Entry.ResultID <= 0:
		return errors.New("its decided entry has an id that is not an id")
	case !listable(o.Type):
		return fmt.Errorf("it has a decided entry for a %s run, which a server never lists", o.Type)
	}
	return nil
}

// knownEndEvidence reports whether by is evidence a wait decides on.
func knownEndEvidence(by EndEvidence) bool {
	switch by {
	case EndSeenUnderWay, EndNotEndedBefore, EndChanged, EndListed, EndAssumed:
		return true
	}
	return false
}

// server names the client's server as a token does: the base URL's host
// (lower case, without a default port) and path, without a trailing slash.
func (c *Client) server() string {
	u, err := url.Parse(c.baseURL)
	if err != nil {
		return c.baseURL
	}
	return serverName(u)
}

func serverName(u *url.URL) string {
	host := strings.ToLower(u.Hostname())
	if port := u.Port(); port != "" && !(port == "443" && u.Scheme == "https" || port == "80" && u.Scheme == "http") {
		host = net.JoinHostPort(host, port)
	} else if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return host + strings.TrimSuffix(u.EscapedPath(), "/")
}

// formerServer reports whether WithFormerServers names server.
func (c *Client) formerServer(server string) bool {
	for _, s := range c.cfg.formerServers {
		if s == server {
			return true
		}
	}
	return false
}

// WithFormerServers names servers whose resume tokens this client resumes
// as its own: the server moved (a new host name or path, the same runs).
// Each is a base URL (https://old-host:8443/api/v1) or a server as a
// token's error names it (old-host:8443/api/v1, taken as https). By
// default a token made for another server than the client's is refused.
func WithFormerServers(servers ...string) Option {
	return func(c *config) error {
		if len(servers) == 0 {
			return errors.New("facade: WithFormerServers: no server given")
		}
		for i, s := range servers {
			name, err := normalServer(s)
			if err != nil {
				return fmt.Errorf("facade: WithFormerServers: server %d: %w", i+1, err)
			}
			c.formerServers = append(c.formerServers, name)
		}
		return nil
	}
}

// normalServer is a base URL or host[:port]/path as a token names its
// server.
func normalServer(s string) (string, error) {
	if strings.TrimSpace(s) == "" {
		return "", errors.New("it is empty")
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Hostname() == "" {
		return "", errors.New("it is not a base URL or host[:port]/path")
	}
	return serverName(u), nil
}
