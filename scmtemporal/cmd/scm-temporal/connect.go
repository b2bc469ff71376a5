package main

import (
	"flag"
	"fmt"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/contrib/envconfig"

	"github.com/scmodel/scmgo/scmtemporal"
)

// connection is how scm-temporal reaches Temporal, read as the Temporal
// CLI reads it: the profile of the config file (-config-file or
// TEMPORAL_CONFIG_FILE, -profile or TEMPORAL_PROFILE), then the
// environment (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY,
// TEMPORAL_TLS, TEMPORAL_TLS_CLIENT_CERT_PATH, TEMPORAL_TLS_CLIENT_KEY_PATH,
// TEMPORAL_TLS_SERVER_CA_CERT_PATH, TEMPORAL_TLS_SERVER_NAME,
// TEMPORAL_TLS_DISABLE_HOST_VERIFICATION, their _DATA forms,
// TEMPORAL_GRPC_META_*; the older TEMPORAL_TLS_CERT, TEMPORAL_TLS_KEY and
// TEMPORAL_TLS_CA override them), then the flags given.
type connection struct {
	address, namespace, apiKey            string
	profile, configFile                   string
	tls, tlsDisableHostVerification       bool
	tlsCert, tlsKey, tlsCA, tlsServerName string
	taskQueue                             string
	set                                   map[string]bool // the flags given
}

func (c *connection) register(fs *flag.FlagSet) {
	fs.StringVar(&c.address, "address", client.DefaultHostPort, "Temporal's frontend `host:port` (TEMPORAL_ADDRESS)")
	fs.StringVar(&c.namespace, "namespace", client.DefaultNamespace, "Temporal namespace (TEMPORAL_NAMESPACE)")
	fs.StringVar(&c.apiKey, "api-key", "", "API key, sent as a bearer token; TLS unless -tls=false (TEMPORAL_API_KEY)")
	fs.BoolVar(&c.tls, "tls", false, "connect with TLS (TEMPORAL_TLS)")
	fs.StringVar(&c.tlsCert, "tls-cert-path", "", "client certificate for mTLS, PEM `file` (TEMPORAL_TLS_CLIENT_CERT_PATH)")
	fs.StringVar(&c.tlsKey, "tls-key-path", "", "client key for mTLS, PEM `file` (TEMPORAL_TLS_CLIENT_KEY_PATH)")
	fs.StringVar(&c.tlsCA, "tls-ca-path", "", "certificate authority of the server, PEM `file` (TEMPORAL_TLS_SERVER_CA_CERT_PATH)")
	fs.StringVar(&c.tlsServerName, "tls-server-name", "", "server name the certificate must be for (TEMPORAL_TLS_SERVER_NAME)")
	fs.BoolVar(&c.tlsDisableHostVerification, "tls-disable-host-verification", false, "do not check the server's name (TEMPORAL_TLS_DISABLE_HOST_VERIFICATION)")
	fs.StringVar(&c.profile, "profile", "", "profile of the config file (TEMPORAL_PROFILE)")
	fs.StringVar(&c.configFile, "config-file", "", "Temporal's TOML config `file` (TEMPORAL_CONFIG_FILE; default the user's temporal.toml)")
	fs.StringVar(&c.taskQueue, "task-queue", scmtemporal.DefaultTaskQueue, "the workers' task queue")
}

// noted records which flags were given, after parsing.
func (c *connection) noted(fs *flag.FlagSet) {
	c.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { c.set[f.Name] = true })
}

// clientOptions are the Temporal client's options: the profile and the
// environment, then the flags given.
func (c *connection) clientOptions(env envconfig.EnvLookup) (client.Options, error) {
	prof, err := envconfig.LoadClientConfigProfile(envconfig.LoadClientConfigProfileOptions{
		ConfigFilePath: c.configFile, ConfigFileProfile: c.profile, EnvLookup: env})
	if err != nil {
		return client.Options{}, fmt.Errorf("reading Temporal's client configuration: %w", err)
	}
	legacyTLS(&prof, env)
	c.apply(&prof)
	opts, err := prof.ToClientOptions(envconfig.ToClientOptionsRequest{})
	if err != nil {
		return client.Options{}, fmt.Errorf("the Temporal client configuration: %w", err)
	}
	if opts.HostPort == "" {
		opts.HostPort = client.DefaultHostPort
	}
	return opts, nil
}

// legacyTLS applies TEMPORAL_TLS_CERT, TEMPORAL_TLS_KEY and TEMPORAL_TLS_CA
// (and their _DATA forms), as the Temporal CLI still does, over the rest.
func legacyTLS(prof *envconfig.ClientConfigProfile, env envconfig.EnvLookup) {
	for _, v := range []struct {
		name string
		set  func(*envconfig.ClientConfigTLS, string)
	}{
		{"TEMPORAL_TLS_CERT", func(t *envconfig.ClientConfigTLS, s string) { t.ClientCertPath = s }},
		{"TEMPORAL_TLS_CERT_DATA", func(t *envconfig.ClientConfigTLS, s string) { t.ClientCertData = []byte(s) }},
		{"TEMPORAL_TLS_KEY", func(t *envconfig.ClientConfigTLS, s string) { t.ClientKeyPath = s }},
		{"TEMPORAL_TLS_KEY_DATA", func(t *envconfig.ClientConfigTLS, s string) { t.ClientKeyData = []byte(s) }},
		{"TEMPORAL_TLS_CA", func(t *envconfig.ClientConfigTLS, s string) { t.ServerCACertPath = s }},
		{"TEMPORAL_TLS_CA_DATA", func(t *envconfig.ClientConfigTLS, s string) { t.ServerCACertData = []byte(s) }},
	} {
		if s, ok := env.LookupEnv(v.name); ok && s != "" {
			if prof.TLS == nil {
				prof.TLS = &envconfig.ClientConfigTLS{}
			}
			v.set(prof.TLS, s)
		}
	}
}

// apply sets the flags given over the profile; a TLS flag turns TLS on.
func (c *connection) apply(prof *envconfig.ClientConfigProfile) {
	if c.set["address"] {
		prof.Address = c.address
	}
	if c.set["namespace"] || prof.Namespace == "" {
		prof.Namespace = c.namespace
	}
	if c.set["api-key"] {
		prof.APIKey = c.apiKey
	}
	if !c.set["tls"] && c.tlsCert == "" && c.tlsKey == "" && c.tlsCA == "" && c.tlsServerName == "" && !c.tlsDisableHostVerification {
		return
	}
	if prof.TLS == nil {
		prof.TLS = &envconfig.ClientConfigTLS{}
	}
	t := prof.TLS
	if c.set["tls"] {
		t.Disabled = !c.tls
	}
	for _, v := range []struct {
		flag string
		dst  *string
	}{{c.tlsCert, &t.ClientCertPath}, {c.tlsKey, &t.ClientKeyPath}, {c.tlsCA, &t.ServerCACertPath}, {c.tlsServerName, &t.ServerName}} {
		if v.flag != "" {
			*v.dst = v.flag
		}
	}
	t.DisableHostVerification = t.DisableHostVerification || c.tlsDisableHostVerification
}
