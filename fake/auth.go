package fake

import (
	"net/http"
	"strconv"
	"strings"
)

// authenticate finds the user of the call's key. The Authorization header is
// the key, optionally preceded by one prefix word ("Bearer KEY").
func (h *Handler) authenticate(r *http.Request) (string, error) {
	header := r.Header.Get("Authorization")
	if strings.TrimSpace(header) == "" {
		return "", errorf(http.StatusUnauthorized, "header Authorization: missing API key")
	}
	fields := strings.Fields(header)
	if len(fields) > 2 {
		return "", errorf(http.StatusUnauthorized, "header Authorization: expected a key, optionally after one prefix word")
	}
	key := fields[len(fields)-1]
	for i, k := range h.cfg.keys {
		if k == key {
			return userName(i), nil
		}
	}
	return "", errorf(http.StatusUnauthorized, "header Authorization: API key not recognised")
}

// userName names the user of the i-th configured key.
func userName(i int) string {
	if i == 0 {
		return "demo"
	}
	return "user" + itoa(int64(i+1))
}

// userID is the id of a user named by userName: 1 for "demo", n for "usern".
func userID(name string) int64 {
	if n, err := strconv.ParseInt(strings.TrimPrefix(name, "user"), 10, 64); err == nil {
		return n
	}
	return 1
}
