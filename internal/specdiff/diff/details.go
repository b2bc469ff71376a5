package diff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/scmodel/scmgo/internal/specdiff/oas"
	"github.com/scmodel/scmgo/internal/specdiff/report"
)

// compareDetails reports how a listing's operation differs from the spec's.
func compareDetails(id string, spec, listed *oas.Details, at report.Location) []report.Finding {
	var out []report.Finding
	add := func(k, format string, args ...any) {
		out = append(out, report.New(k, id, fmt.Sprintf(format, args...), at))
	}
	for _, sp := range spec.Params {
		lp, ok := findParam(listed.Params, sp.Name)
		if !ok {
			add("param-missing", "parameter %s (%s, %s) is not in the listing", sp.Name, sp.In, requiredWord(sp.Required))
			continue
		}
		compareParam(add, sp, lp)
	}
	for _, lp := range listed.Params {
		if _, ok := findParam(spec.Params, lp.Name); !ok {
			add("param-extra", "parameter %s (%s, %s) is not in the spec", lp.Name, lp.In, requiredWord(lp.Required))
		}
	}
	if !slices.Equal(spec.RequestTypes, listed.RequestTypes) {
		add("request-media-type", "request body %s; listing has %s", mediaList(spec.RequestTypes), mediaList(listed.RequestTypes))
	}
	if !slices.Equal(spec.ResponseTypes, listed.ResponseTypes) {
		add("response-media-type", "response %s; listing has %s", mediaList(spec.ResponseTypes), mediaList(listed.ResponseTypes))
	}
	if spec.Security != listed.Security {
		add("security", "security %s; listing has %s", spec.Security, listed.Security)
	}
	return out
}

func compareParam(add func(k, format string, args ...any), sp, lp oas.Param) {
	if sp.In != lp.In {
		add("param-location", "parameter %s is in %s; listing has %s", sp.Name, sp.In, lp.In)
	}
	if sp.Required != lp.Required {
		add("param-required", "parameter %s is %s; listing has %s", sp.Name, requiredWord(sp.Required), requiredWord(lp.Required))
	}
	if sp.Type != lp.Type {
		add("param-type", "parameter %s is %s; listing has %s", sp.Name, sp.Type, lp.Type)
	}
	if sp.Default != lp.Default {
		add("param-default", "parameter %s defaults to %s; listing has %s", sp.Name, orNone(sp.Default), orNone(lp.Default))
	}
	if added := without(lp.Enum, sp.Enum); len(added) > 0 && len(sp.Enum) > 0 {
		add("enum-added", "parameter %s: listing allows %s, which the spec does not", sp.Name, strings.Join(added, ", "))
	}
	if removed := without(sp.Enum, lp.Enum); len(removed) > 0 && len(lp.Enum) > 0 {
		add("enum-removed", "parameter %s: listing lacks %s", sp.Name, strings.Join(removed, ", "))
	}
	switch {
	case len(sp.Enum) > 0 && len(lp.Enum) == 0:
		add("enum-removed", "parameter %s: listing has no enumeration; spec allows %s", sp.Name, strings.Join(sp.Enum, ", "))
	case len(sp.Enum) == 0 && len(lp.Enum) > 0:
		add("enum-added", "parameter %s: listing restricts it to %s; spec has no enumeration", sp.Name, strings.Join(lp.Enum, ", "))
	}
}

func findParam(ps []oas.Param, name string) (oas.Param, bool) {
	for _, p := range ps {
		if p.Name == name {
			return p, true
		}
	}
	return oas.Param{}, false
}

// without returns the values of a that b lacks.
func without(a, b []string) []string {
	var out []string
	for _, v := range a {
		if !slices.Contains(b, v) {
			out = append(out, v)
		}
	}
	return out
}

func requiredWord(required bool) string {
	if required {
		return "required"
	}
	return "optional"
}

func orNone(s string) string {
	if s == "" {
		return "nothing"
	}
	return s
}

func mediaList(types []string) string {
	if len(types) == 0 {
		return "none"
	}
	return strings.Join(types, ", ")
}
