// Package oapitmpl holds the templates of oapi-codegen that scmgo replaces
// (oapi-codegen.yaml names them under output-options.user-templates), and
// the tests of what they generate in package gen.
//
// additional-properties.tmpl is oapi-codegen v2.8.2's own with one change:
// a model's MarshalJSON writes a value that gen.DecodeAnswer kept raw in
// AdditionalProperties under a typed field's name (the answer had a value
// of a type it could not convert) only while that field is unset (its zero
// value, a pointer nil). A model read and sent back unchanged carries the
// raw value; a caller who sets the field sends the caller's value.
package oapitmpl
