package main

import (
	"encoding/json"
	"fmt"
	"mime"
)

// Note [Lenient Content-Type]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// `curl -d '{...}'` sends application/x-www-form-urlencoded, and many HTTP
// libraries send no Content-Type at all; most inference servers (Triton,
// TorchServe, KServe's Python server) read such a body as JSON when it parses
// as JSON. We do the same (issue 42 point 6), but only then: a form body that
// is not JSON, or any other declared type (text/plain, multipart/...), still
// gets a 415 naming the types we read, so a client that really sent a form
// learns why it was refused rather than meeting a JSON syntax error.

// bodyKind is how a request body is read.
type bodyKind int

const (
	bodyJSON    bodyKind = iota // application/json
	bodyOctet                   // application/octet-stream (raw tensors, or v2's binary extension)
	bodyLenient                 // none or a form type: JSON if it parses (Note [Lenient Content-Type])
	bodyRefused                 // anything else: 415
)

// bodyKindOf classifies a Content-Type header value.
func bodyKindOf(contentType string) bodyKind {
	if contentType == "" {
		return bodyLenient
	}
	mt, _, err := mime.ParseMediaType(contentType)
	switch {
	case err != nil:
		return bodyRefused
	case mt == "application/json":
		return bodyJSON
	case mt == "application/octet-stream":
		return bodyOctet
	case mt == "application/x-www-form-urlencoded":
		return bodyLenient
	}
	return bodyRefused
}

// lenientJSON decides a body of kind bodyLenient (jsonPart is the part that
// must be JSON: the whole body, or v2's header before the binary tensors):
// nil when it parses, else the 415 message.
func lenientJSON(contentType string, jsonPart []byte) error {
	if json.Valid(jsonPart) {
		return nil
	}
	if contentType == "" {
		return fmt.Errorf("the body has no Content-Type and does not parse as JSON: want application/json (or " +
			"application/octet-stream)")
	}
	return fmt.Errorf("Content-Type %q: the body does not parse as JSON; want application/json (or "+
		"application/octet-stream)", contentType)
}
