package facade

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
)

// tlsSettings are the TLS options, applied to the transport in [New].
type tlsSettings struct {
	config     *tls.Config    // nil: the transport's own
	roots      *x509.CertPool // the system's roots and the CA files, nil when none was given
	skipVerify bool
}

func (s tlsSettings) set() bool { return s.config != nil || s.roots != nil || s.skipVerify }

// WithCACertFile trusts the PEM certificates in the file at path, besides
// the system's roots: for servers whose certificate comes from their own CA
// (the norm for this server). The file is read here; a file without a
// certificate fails [New]. The rest of the TLS configuration stays as
// given, with [WithTLSConfig] or on the transport of [WithHTTPClient]
// (minimum version, server name, client certificates): only the roots are
// replaced.
func WithCACertFile(path string) Option {
	return func(c *config) error {
		pem, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("facade: WithCACertFile: %w", err)
		}
		pool := c.tls.roots
		if pool == nil {
			if pool, err = x509.SystemCertPool(); err != nil {
				pool = x509.NewCertPool()
			}
		}
		pool = pool.Clone()
		if !pool.AppendCertsFromPEM(pem) {
			return fmt.Errorf("facade: WithCACertFile: %s holds no PEM certificate", path)
		}
		c.tls.roots = pool
		return nil
	}
}

// WithTLSConfig sets the TLS configuration of the client's transport. The
// configuration is cloned. Nil is refused.
func WithTLSConfig(cfg *tls.Config) Option {
	return func(c *config) error {
		if cfg == nil {
			return errors.New("facade: WithTLSConfig: the configuration is nil")
		}
		c.tls.config = cfg.Clone()
		return nil
	}
}

// WithInsecureSkipVerify turns verification of the server's certificate
// off: anyone on the network path can then read the API key. Prefer
// [WithCACertFile]. [New] logs a warning once when it is set.
func WithInsecureSkipVerify() Option {
	return func(c *config) error {
		c.tls.skipVerify = true
		return nil
	}
}

func (s tlsSettings) clone() *tls.Config {
	if s.config == nil {
		return &tls.Config{MinVersion: tls.VersionTLS12}
	}
	return s.config.Clone()
}

// transport applies the TLS settings to base: nil means a clone of
// http.DefaultTransport. A transport that is not an *http.Transport cannot
// take them.
func (s tlsSettings) transport(base http.RoundTripper) (http.RoundTripper, error) {
	if base == nil {
		base = defaultTransport()
	}
	if !s.set() {
		return base, nil
	}
	t, ok := base.(*http.Transport)
	if !ok {
		return nil, fmt.Errorf("facade: New: the TLS options need an *http.Transport, and WithHTTPClient gave a %T: set TLS on that transport instead", base)
	}
	t = t.Clone()
	cfg := s.clone()
	if t.TLSClientConfig != nil && s.config == nil {
		cfg = t.TLSClientConfig.Clone() // the caller's, with ours over it
	}
	if s.roots != nil {
		cfg.RootCAs = s.roots
	}
	cfg.InsecureSkipVerify = cfg.InsecureSkipVerify || s.skipVerify
	t.TLSClientConfig = cfg
	return t, nil
}

func (s tlsSettings) warn(logger *slog.Logger, baseURL string) {
	if s.skipVerify {
		logger.Warn("scm: TLS certificate verification is off (WithInsecureSkipVerify): the API key can be read by anyone on the path", slog.String("baseURL", baseURL))
	}
}
