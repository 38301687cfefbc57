package weft

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSymbolFixtureListsAndInputs(t *testing.T) {
	dir := fixtureDir(t)
	sym, err := LoadSymbol(filepath.Join(dir, "cnn-symbol.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer sym.Close()
	args, err := sym.Arguments()
	if err != nil {
		t.Fatal(err)
	}
	if args[0] != "data" || len(args) != 9 {
		t.Fatalf("arguments %v", args)
	}
	aux, _ := sym.AuxiliaryStates()
	if !reflect.DeepEqual(aux, []string{"cnn_batchnorm0_running_mean", "cnn_batchnorm0_running_var"}) {
		t.Fatalf("aux %v", aux)
	}
	internals, err := sym.InternalOutputs()
	if err != nil || len(internals) <= len(args) {
		t.Fatalf("internals %v %v", internals, err)
	}
	attrs, _ := sym.Attrs()
	if attrs["cnn_conv0_weight$__shape__"] != "(4, 0, 3, 3)" {
		t.Fatalf("attrs %v", attrs)
	}
	text, err := sym.JSON()
	if err != nil || !strings.Contains(text, "cnn_conv0_fwd") {
		t.Fatalf("json %v", err)
	}
}

func TestSymbolBadJSONIsAnError(t *testing.T) {
	if _, err := SymbolFromJSON(`{"nodes": [`); err == nil || !strings.Contains(err.Error(), "weft_symbol_from_json") {
		t.Fatalf("truncated JSON: %v", err)
	}
}
