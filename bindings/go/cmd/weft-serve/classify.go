package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Triton's classification extension: an output requested with
// "parameters": {"classification": K} (tritonclient's class_count=K) comes
// back as BYTES strings "score:index" or "score:index:label", the K highest
// scores of each batch row, highest first; shape [rows, K] (or [K] for an
// output without a batch axis). Labels are the lines of NAME-labels.txt
// beside the model, else of synset.txt (MXNet's model zoo ships one; its
// lines are used whole, "n01440764 tench, Tinca tinca", as Triton uses a
// label file's lines).

// maxLabelsBytes bounds a labels file read into memory (a label file of
// 100k classes is about 3 MB).
const maxLabelsBytes = 64 << 20

// loadLabels reads the labels beside symbolPath for model name: the lines
// and the file's base name, or nils when there is no label file.
func loadLabels(symbolPath, name string) ([]string, string, error) {
	dir := filepath.Dir(symbolPath)
	for _, base := range []string{name + "-labels.txt", "synset.txt"} {
		path := filepath.Join(dir, base)
		info, err := os.Stat(path)
		if err != nil {
			continue
		}
		if info.Size() > maxLabelsBytes {
			return nil, "", fmt.Errorf("labels file %s is %d bytes, more than the %d read", path, info.Size(),
				maxLabelsBytes)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, "", err
		}
		var labels []string
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(make([]byte, 0, 64<<10), maxLabelsBytes)
		for sc.Scan() {
			labels = append(labels, strings.TrimRight(sc.Text(), "\r"))
		}
		if err := sc.Err(); err != nil {
			return nil, "", fmt.Errorf("labels file %s: %v", path, err)
		}
		return labels, base, nil
	}
	return nil, "", nil
}

// classified is a classification result: BYTES elements of shape.
type classified struct {
	shape []int64
	elems []string
}

// classify takes the k best scores of each row of t (axis 0 is the batch
// axis when t has rank >= 2).
func classify(t tensor, k int, labels []string) (classified, error) {
	if k <= 0 {
		return classified{}, fmt.Errorf("classification %d: want a positive class count", k)
	}
	if t.dtype.Size() == 0 {
		return classified{}, fmt.Errorf("classification of a %s output is not supported", t.dtype)
	}
	n := len(t.data) / t.dtype.Size()
	rows := 1
	if len(t.shape) >= 2 {
		rows = int(t.shape[0])
	}
	if rows <= 0 || n%rows != 0 {
		return classified{}, fmt.Errorf("classification of an output of shape %v", t.shape)
	}
	per := n / rows
	k = min(k, per) // as Triton: asking for more classes than there are gives them all
	scores := make([]float64, per)
	order := make([]int, per)
	out := classified{shape: []int64{int64(k)}}
	if len(t.shape) >= 2 {
		out.shape = []int64{int64(rows), int64(k)}
	}
	for r := 0; r < rows; r++ {
		for i := 0; i < per; i++ {
			v, _, ok := number(t.data, r*per+i, t.dtype)
			if !ok {
				return classified{}, fmt.Errorf("classification of a %s output is not supported", t.dtype)
			}
			scores[i], order[i] = v, i
		}
		sort.SliceStable(order, func(a, b int) bool { return scores[order[a]] > scores[order[b]] })
		for _, i := range order[:k] {
			s := strconv.FormatFloat(scores[i], 'f', 6, 64) + ":" + strconv.Itoa(i)
			if i < len(labels) && labels[i] != "" {
				s += ":" + labels[i]
			}
			out.elems = append(out.elems, s)
		}
	}
	return out, nil
}

// bytesTensor is the binary-data form of BYTES: each element a 4-byte
// little-endian length, then its bytes (Triton's serialization).
func (c classified) bytesTensor() []byte {
	var buf []byte
	for _, e := range c.elems {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(len(e)))
		buf = append(buf, e...)
	}
	return buf
}
