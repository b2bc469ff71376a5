package jsondec

// Generated are the decoders package gen generates: its decoder of any
// answer with options, and the constructor of each operation's answer.
// Package gen installs them when it is initialised, with
// [InstallGenerated]; package internal/gendecode, which imports gen (so
// that they are installed before it runs), calls them. gen's own public
// entry, gen.DecodeAnswer, calls its decoder directly.
type Generated struct {
	Decode    func(data []byte, v any, o *Options) error
	NewAnswer func(op string) any
}

var generated Generated

// InstallGenerated is called once, by the init of package gen.
func InstallGenerated(g Generated) { generated = g }

// GeneratedDecoders returns what package gen installed.
func GeneratedDecoders() Generated { return generated }
