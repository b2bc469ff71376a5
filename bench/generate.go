package bench

//go:generate go run github.com/ogen-go/ogen/cmd/ogen -config ogen.yml -target ogenclient -package ogenclient -clean ../api/openapi.yaml
