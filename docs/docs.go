// Package docs embeds Muster's documents, so that the web app can show them
// (rules, findings, strength) without the repository at hand.
package docs

import (
	"embed"
	"fmt"
	"strings"
)

// Files holds the Markdown documents of this folder.
//
//go:embed *.md
var Files embed.FS

// Numbered returns the items of the numbered list in the section of
// document name whose heading ("## …") begins with heading, each without
// its number: a list that tests hold something to (docs/lanrick-rules.md's
// "1893 in brief", the rules the lessons state).
func Numbered(name, heading string) ([]string, error) {
	b, err := Files.ReadFile(name)
	if err != nil {
		return nil, err
	}
	_, section, ok := strings.Cut(string(b), "\n## "+heading)
	if !ok {
		return nil, fmt.Errorf("docs: %s has no section %q", name, heading)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var items []string
	for _, line := range strings.Split(section, "\n") {
		if n, text, ok := strings.Cut(line, ". "); ok && n != "" && strings.Trim(n, "0123456789") == "" {
			items = append(items, text)
		}
	}
	return items, nil
}
