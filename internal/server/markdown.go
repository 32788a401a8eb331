package server

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
)

// markdown renders one of Muster's documents as HTML with goldmark:
// GitHub's tables (and its other extensions), headings with ids made from
// their text so that a page can link to a section, and goldmark's safe
// defaults: raw HTML is left out and dangerous link targets are dropped.
func markdown(src string) string {
	md := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithParserOptions(parser.WithAutoHeadingID()))
	ctx := parser.NewContext(parser.WithIDs(&headingIDs{seen: map[string]int{}}))
	var b bytes.Buffer
	if err := md.Convert([]byte(src), &b, parser.WithContext(ctx)); err != nil {
		// goldmark writes to a buffer, which does not fail.
		return ""
	}
	return b.String()
}

// headingIDs names headings as the documents' links expect: the text in
// lower case, runs of other characters as one hyphen ("Ruleset 1880-12" →
// "ruleset-1880-12"), a repeated one numbered ("…-1").
type headingIDs struct {
	seen map[string]int
}

var slugRE = regexp.MustCompile(`[^a-z0-9]+`)

func (h *headingIDs) Generate(value []byte, kind ast.NodeKind) []byte {
	id := strings.Trim(slugRE.ReplaceAllString(strings.ToLower(string(value)), "-"), "-")
	if id == "" {
		id = "section"
	}
	if k := h.seen[id]; k > 0 {
		h.seen[id]++
		return []byte(id + "-" + strconv.Itoa(k))
	}
	h.seen[id] = 1
	return []byte(id)
}

func (h *headingIDs) Put(value []byte) { h.seen[string(value)]++ }
