package resultdata

import (
	"strings"
	"time"
)

// timeLayouts are the texts read as times: ISO 8601 with or without a time
// of day, a T or a space, and the day.month.year of European locales.
// Slashed dates are left out: 01/02/2024 is January or February by locale.
var timeLayouts = []string{
	"2006-01-02", "2006-01-02 15:04", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02T15:04:05",
	"02.01.2006", "02.01.2006 15:04", "02.01.2006 15:04:05",
}

// parseTime reads a text as a time: one of timeLayouts, with fractions of
// a second, or RFC 3339 with a zone (turned into UTC).
func parseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if len(s) < 8 || len(s) > 40 || s[0] < '0' || s[0] > '9' {
		return time.Time{}, false
	}
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, trimFraction(s, len(layout))); err == nil && fractionOK(s, len(layout)) {
			return t.Add(fraction(s, len(layout))), true
		}
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), true
	}
	return time.Time{}, false
}

// trimFraction drops fractions of a second past a layout of n bytes.
func trimFraction(s string, n int) string {
	if len(s) > n && s[n] == '.' {
		return s[:n]
	}
	return s
}

// fractionOK tells whether what follows a layout of n bytes is a fraction
// of a second: a dot and digits.
func fractionOK(s string, n int) bool {
	if len(s) <= n {
		return true
	}
	if s[n] != '.' || len(s) == n+1 || strings.Count(s[:n], ":") != 2 {
		return false
	}
	for _, c := range s[n+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// fraction is the fraction of a second past a layout of n bytes.
func fraction(s string, n int) time.Duration {
	if len(s) <= n {
		return 0
	}
	var d time.Duration
	scale := time.Second
	for _, c := range s[n+1:] {
		if scale /= 10; scale == 0 {
			break
		}
		d += time.Duration(c-'0') * scale
	}
	return d
}
