package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/scmodel/scmgo/internal/spec"
)

// writePageItems writes, for each paged operation whose page is a model,
// the function that returns a page's items: the property its x-paged-items
// names, so that a reader of pages takes the field from the spec and a
// spec naming a property the model lacks does not compile. A nil page has
// no items.
func writePageItems(b *bytes.Buffer, items []spec.PagedItems) {
	for _, it := range items {
		name := exportedName(it.Operation) + "PageItems"
		fmt.Fprintf(b, "\n// %s returns the items of a page of %s: its property %s\n// (x-paged-items).\n", name, it.Operation, it.Property)
		fmt.Fprintf(b, "func %s(page *%s) []%s {\n\tif page == nil {\n\t\treturn nil\n\t}\n\treturn page.%s\n}\n",
			name, it.Model, it.Item, exportedName(it.Property))
	}
}

// exportedName is a camelCase name with its first letter upper-cased, as
// oapi-codegen names the operation's types and the properties' fields.
func exportedName(name string) string {
	return strings.ToUpper(name[:1]) + name[1:]
}
