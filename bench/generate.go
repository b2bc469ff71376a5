package bench

//go:generate go run github.com/ogen-go/ogen/cmd/ogen -loglevel warn -config ogen.yml -target ogenclient -package ogenclient -clean ../api/openapi.yaml
