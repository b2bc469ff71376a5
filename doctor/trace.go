package doctor

import (
	"crypto/tls"
	"errors"
	"net"
	"net/http/httptrace"
	"slices"
	"sync"
)

// connTrace records what the client's transport did to reach the server
// during one call: the name looked up, the connection, the TLS handshake.
// A success is kept once seen: the transport races connections to a
// name's addresses, and the loser's failure comes after the winner.
type connTrace struct {
	mu   sync.Mutex
	seen connSeen
}

// connSeen is what a connTrace recorded.
type connSeen struct {
	host     string // the name looked up
	addrs    []string
	dnsErr   error
	resolved bool

	addr      string // the address connected to, or tried last
	connErr   error
	connected bool

	tlsState *tls.ConnectionState
	tlsErr   error

	reused bool // the call used a connection made before
}

func (t *connTrace) clientTrace() *httptrace.ClientTrace {
	return &httptrace.ClientTrace{
		DNSStart: func(i httptrace.DNSStartInfo) { t.set(func(s *connSeen) { s.host = i.Host }) },
		DNSDone:  t.dnsDone,
		ConnectDone: func(network, addr string, err error) {
			t.set(func(s *connSeen) {
				if !s.connected {
					s.addr, s.connErr, s.connected = addr, err, err == nil
				}
			})
		},
		TLSHandshakeDone: func(state tls.ConnectionState, err error) {
			t.set(func(s *connSeen) {
				if s.tlsState == nil {
					if err == nil {
						s.tlsState = &state
					}
					s.tlsErr = err
				}
			})
		},
		GotConn: func(i httptrace.GotConnInfo) { t.set(func(s *connSeen) { s.reused = i.Reused }) },
	}
}

func (t *connTrace) dnsDone(i httptrace.DNSDoneInfo) {
	t.set(func(s *connSeen) {
		if s.resolved {
			return
		}
		s.dnsErr, s.resolved = i.Err, i.Err == nil
		s.addrs = s.addrs[:0]
		for _, a := range i.Addrs {
			s.addrs = append(s.addrs, a.String())
		}
	})
}

func (t *connTrace) set(f func(*connSeen)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f(&t.seen)
}

// snapshot is a copy of what was recorded, to read without the lock.
func (t *connTrace) snapshot() connSeen {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.seen
	s.addrs = slices.Clone(s.addrs)
	return s
}

// dialFailed reports a failure to open a connection that the trace did
// not see (a transport that reports nothing).
func dialFailed(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && (op.Op == "dial" || op.Op == "proxyconnect")
}
