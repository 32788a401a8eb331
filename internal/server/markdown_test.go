package server

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/muster-games/muster/docs"
)

func TestMarkdown(t *testing.T) {
	src := "# Carroll's questions\n\n## Ruleset 1880-12\n\nSome *text* with `a<b` and **bold** and [a link](strength.md) and [bad](javascript:alert(1)).\n\n" +
		"* one\n  continued\n* two\n\n1. first\n2. second\n\n> quoted\n> more\n\n| a | b |\n|---|---|\n| 1 | <x> |\n\n```\ncode <here>\n```\n\n## Ruleset 1880-12\n\n" +
		"<script>alert(1)</script>\n\n<div onclick=\"x()\">raw</div>\n"
	got := markdown(src)
	for _, want := range []string{
		`<h1 id="carroll-s-questions">`, `<h2 id="ruleset-1880-12">`, `<h2 id="ruleset-1880-12-1">`,
		"<em>text</em>", "<code>a&lt;b</code>", "<strong>bold</strong>", `<a href="strength.md">a link</a>`,
		"<li>one\ncontinued</li>", "<ol>", "<li>second</li>", "<blockquote>\n<p>quoted\nmore</p>\n</blockquote>",
		"<th>a</th>", "<pre><code>code &lt;here&gt;\n</code></pre>",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, `href="javascript`) {
		t.Error("a javascript: link was kept")
	}
	// Raw HTML in a document is not passed through.
	for _, raw := range []string{"<x>", "<script", "onclick", "<div"} {
		if strings.Contains(got, raw) {
			t.Errorf("raw HTML %q passed through:\n%s", raw, got)
		}
	}
}

// TestDocumentLinks: every document renders, and every link from one to a
// section (of itself or another document) finds a heading with that id.
func TestDocumentLinks(t *testing.T) {
	ids := map[string]map[string]bool{}
	pages := map[string]string{}
	idRE := regexp.MustCompile(`id="([^"]+)"`)
	err := fs.WalkDir(docs.Files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") || strings.Contains(path, "/") {
			return err
		}
		text, err := docs.Files.ReadFile(path)
		if err != nil {
			return err
		}
		page := markdown(string(text))
		if !strings.Contains(page, "<h1") {
			t.Errorf("%s renders without a title", path)
		}
		pages[path], ids[path] = page, map[string]bool{}
		for _, m := range idRE.FindAllStringSubmatch(page, -1) {
			ids[path][m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	hrefRE := regexp.MustCompile(`href="([^"#]*)#([^"]+)"`)
	n := 0
	for path, page := range pages {
		for _, m := range hrefRE.FindAllStringSubmatch(page, -1) {
			target := m[1]
			if strings.Contains(target, "://") {
				continue
			}
			if target == "" {
				target = path
			}
			n++
			if known, ok := ids[target]; ok && !known[m[2]] {
				t.Errorf("%s links to %s#%s: no such section", path, target, m[2])
			}
		}
	}
	t.Logf("%d documents, %d links to sections", len(pages), n)
}

func FuzzMarkdown(f *testing.F) {
	f.Add("# h\n\n* a\n| x |\n```\n")
	f.Add("[a](b) `c` **d** *e*\n> q")
	f.Add("<script>x</script>\n[a](javascript:x)")
	f.Fuzz(func(t *testing.T, src string) {
		out := markdown(src)
		if strings.Contains(out, "<script") {
			t.Fatalf("script tag in output of %q", src)
		}
	})
}
