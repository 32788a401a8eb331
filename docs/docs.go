// Package docs embeds Muster's documents, so that the web app can show them
// (rules, findings, strength) without the repository at hand.
package docs

import "embed"

// Files holds the Markdown documents of this folder.
//
//go:embed *.md
var Files embed.FS
