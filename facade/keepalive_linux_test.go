package facade

import (
	"net"
	"net/http"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The default transport finds a dead connection under a call the server
// holds open by TCP keep-alive: the connections it dials probe after 15 s
// of silence, every 15 s, and give up after 4 unanswered probes.
func TestDefaultTransportDialsWithKeepAlive(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	c := newTestClient(t, "http://"+ln.Addr().String()+"/api/v1")
	base := c.hc.Transport.(*authTransport).base.(*http.Transport)
	conn, err := base.DialContext(testCtx(t), "tcp", ln.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	raw, err := conn.(*net.TCPConn).SyscallConn()
	require.NoError(t, err)
	got := map[string]int{}
	require.NoError(t, raw.Control(func(fd uintptr) {
		for name, opt := range map[string][2]int{
			"SO_KEEPALIVE": {syscall.SOL_SOCKET, syscall.SO_KEEPALIVE}, "TCP_KEEPIDLE": {syscall.IPPROTO_TCP, syscall.TCP_KEEPIDLE},
			"TCP_KEEPINTVL": {syscall.IPPROTO_TCP, syscall.TCP_KEEPINTVL}, "TCP_KEEPCNT": {syscall.IPPROTO_TCP, syscall.TCP_KEEPCNT},
		} {
			got[name], _ = syscall.GetsockoptInt(int(fd), opt[0], opt[1])
		}
	}))
	assert.Equal(t, map[string]int{"SO_KEEPALIVE": 1, "TCP_KEEPIDLE": 15, "TCP_KEEPINTVL": 15, "TCP_KEEPCNT": 4}, got)
}
