package main

import (
	"io"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// readmeSection gives the README's weft-serve section.
func readmeSection(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "## weft-serve")
	end := strings.Index(text, "## weft-predict")
	if start < 0 || end < start {
		t.Fatal("README.md has no weft-serve section")
	}
	return text[start:end]
}

// The flags the README's usage block shows are the flags weft-serve has.
func TestReadmeFlagsAreTheRealOnes(t *testing.T) {
	section := readmeSection(t)
	usage := section[:strings.Index(section, "**Models.**")]
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?:^|[\s\[])-([a-z][a-z-]*)`).FindAllStringSubmatch(usage, -1) {
		documented[m[1]] = true
	}
	if _, err := parseFlags([]string{"-models", "x"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	real := map[string]bool{}
	parseFlags([]string{"-h"}, &flagNames{set: real})
	var missing, extra []string
	for name := range real {
		if !documented[name] {
			missing = append(missing, name)
		}
	}
	for name := range documented {
		if !real[name] {
			extra = append(extra, name)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(real) < 10 || len(missing) > 0 || len(extra) > 0 {
		t.Fatalf("README usage vs flags: undocumented %v, not real %v (flags %v)", missing, extra, real)
	}
	if _, err := parseFlags([]string{"-models", "x", "-pool", "0"}, io.Discard); err == nil {
		t.Fatal("-pool 0 accepted")
	}
	if _, err := parseFlags([]string{"-models", "x", "stray"}, io.Discard); err == nil {
		t.Fatal("a folder given twice accepted")
	}
	if _, err := parseFlags([]string{"x", "127.0.0.1:1", "stray"}, io.Discard); err == nil {
		t.Fatal("a stray argument accepted")
	}
	if _, err := parseFlags([]string{"-addr", "127.0.0.1:1", "x", "127.0.0.1:2"}, io.Discard); err == nil {
		t.Fatal("an address given twice accepted")
	}
	// weft-serve DIR ADDR: the folder and address as arguments, as the READMEs show.
	o, err := parseFlags([]string{"-pool", "3", "models", "127.0.0.1:8089"}, io.Discard)
	if err != nil || o.cfg.modelDir != "models" || o.addr != "127.0.0.1:8089" || o.cfg.poolSize != 3 {
		t.Fatalf("weft-serve -pool 3 models 127.0.0.1:8089: %+v, %v", o, err)
	}
	if o, err := parseFlags([]string{"models"}, io.Discard); err != nil || o.cfg.modelDir != "models" ||
		o.addr != "127.0.0.1:8080" {
		t.Fatalf("weft-serve models: %+v, %v", o, err)
	}
}

// flagNames collects the flag names of a -h usage listing ("  -name type").
type flagNames struct{ set map[string]bool }

func (f *flagNames) Write(p []byte) (int, error) {
	for _, m := range regexp.MustCompile(`(?m)^\s+-([a-z][a-z-]*)`).FindAllStringSubmatch(string(p), -1) {
		f.set[m[1]] = true
	}
	return len(p), nil
}

// Every route of the README's tables answers (not 404) on a served model.
func TestReadmeRoutesAnswer(t *testing.T) {
	section := readmeSection(t)
	dir, _ := exportDir(t)
	ts, _, _ := startServer(t, config{modelDir: dir})
	routes := regexp.MustCompile("`(GET|POST) (/[^`, ]*)").FindAllStringSubmatch(section, -1)
	if len(routes) < 10 {
		t.Fatalf("only %d routes found in the README", len(routes))
	}
	for _, r := range routes {
		method, path := r[1], r[2]
		path = strings.NewReplacer("NAME", "cnn", "[/versions/V]", "/versions/0").Replace(path)
		code, _, body := do(t, method, ts.URL+path, map[string]string{"Content-Type": "application/json"},
			[]byte(`{"inputs": []}`))
		if code == http.StatusNotFound || code == http.StatusMethodNotAllowed || code == 0 {
			t.Errorf("README route %s %s: %d %s", method, path, code, body)
		}
	}
}
