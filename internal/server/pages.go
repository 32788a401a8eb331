package server

import (
	"fmt"
	"html"
	"net/http"
	"strings"

	"github.com/muster-games/muster/docs"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/web"
)

// page sends the one page of the app; its script routes by the path.
func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(web.Index())
}

// docStyle is the style of the document pages.
const docStyle = "body{font-family:Georgia,serif;max-width:1000px;margin:auto;padding:1rem;line-height:1.45}" +
	"table{border-collapse:collapse;display:block;max-width:100%;overflow-x:auto}td,th{border:1px solid #bbb;padding:.2rem .5rem;vertical-align:top}" +
	"pre{background:#f4f1ea;padding:.5rem;overflow-x:auto}code{background:#f4f1ea}blockquote{border-left:3px solid #ccc;margin-left:0;padding-left:1rem;color:#444}" +
	":target{background:#fff3c4}"

// doc shows one of Muster's documents, Markdown rendered, other text as
// it is.
func (s *Server) doc(w http.ResponseWriter, r *http.Request) error {
	name := r.PathValue("name")
	text, err := docs.Files.ReadFile(name)
	if err != nil || strings.ContainsAny(name, "/\\") {
		return httpx.WithCode(http.StatusNotFound, fmt.Errorf("no such document %q", name))
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
	body := "<pre style=\"white-space:pre-wrap\">" + html.EscapeString(string(text)) + "</pre>"
	if strings.HasSuffix(name, ".md") {
		body = markdown(string(text))
	}
	fmt.Fprintf(w, "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>%s</title>"+
		"<style>%s</style><body><p><a href=\"/\">Muster</a></p>%s</body></html>", html.EscapeString(name), docStyle, body)
	return nil
}
