package inspect

import (
	"embed"
	"net/http"
	"path"
)

// pageFiles is the inspector's page: one HTML, one CSS and one
// JavaScript file, served as they are (no build step, nothing fetched
// from elsewhere).
//
//go:embed page/index.html page/inspect.css page/inspect.js
var pageFiles embed.FS

var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
}

// page serves / and the page's two files, from the binary only.
func (in *Inspector) page(w http.ResponseWriter, r *http.Request) {
	name := path.Base(r.URL.Path)
	if r.URL.Path == "/" {
		name = "index.html"
	}
	data, err := pageFiles.ReadFile("page/" + name)
	if err != nil {
		fail(w, http.StatusNotFound, "no page %s", r.URL.Path)
		return
	}
	w.Header().Set("Content-Type", contentTypes[path.Ext(name)])
	w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'")
	w.Write(data)
}
