// Package web holds the web app's page, scripts and styles, embedded in
// the binary: plain JavaScript modules and an SVG board, no build step.
package web

import (
	"embed"
	"io/fs"
	"net/http"
)

//go:embed static
var files embed.FS

// Static serves the files under static/.
func Static() http.Handler {
	sub, err := fs.Sub(files, "static")
	if err != nil {
		panic(err)
	}
	return http.FileServer(http.FS(sub))
}

// Index is the one page of the app; its script routes by the address.
func Index() []byte {
	b, err := files.ReadFile("static/index.html")
	if err != nil {
		panic(err)
	}
	return b
}
