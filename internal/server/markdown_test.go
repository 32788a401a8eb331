package server

import (
	"strings"
	"testing"
)

func TestMarkdown(t *testing.T) {
	src := "# Carroll's questions\n\n## Ruleset 1880-12\n\nSome *text* with `a<b` and **bold** and [a link](strength.md) and [bad](javascript:alert(1)).\n\n" +
		"* one\n  continued\n* two\n\n1. first\n2. second\n\n> quoted\n> more\n\n| a | b |\n|---|---|\n| 1 | <x> |\n\n```\ncode <here>\n```\n\n## Ruleset 1880-12\n"
	got := markdown(src)
	for _, want := range []string{
		`<h1 id="carroll-s-questions">`, `<h2 id="ruleset-1880-12">`, `<h2 id="ruleset-1880-12-1">`,
		"<em>text</em>", "<code>a&lt;b</code>", "<strong>bold</strong>", `<a href="strength.md">a link</a>`,
		"<li>one continued</li>", "<ol>", "<li>second</li>", "<blockquote><p>quoted more</p></blockquote>",
		"<th>a</th>", "<td>&lt;x&gt;</td>", "<pre><code>code &lt;here&gt;\n</code></pre>",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "javascript:") && strings.Contains(got, `href="javascript`) {
		t.Error("a javascript: link was kept")
	}
	if strings.Contains(got, "<x>") {
		t.Error("raw HTML passed through")
	}
}

func FuzzMarkdown(f *testing.F) {
	f.Add("# h\n\n* a\n| x |\n```\n")
	f.Add("[a](b) `c` **d** *e*\n> q")
	f.Fuzz(func(t *testing.T, src string) {
		out := markdown(src)
		if strings.Contains(out, "<script") {
			t.Fatalf("script tag in output of %q", src)
		}
	})
}
