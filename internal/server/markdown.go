package server

import (
	"html"
	"regexp"
	"strconv"
	"strings"
)

// markdown renders the small Markdown of Muster's documents as HTML:
// headings (each with an id made from its text, so a page can link to a
// section), paragraphs, bullet and numbered lists, block quotes, fenced
// code, tables, and inline code, bold, italics and links. Everything is
// escaped first; links keep only relative, #anchor and http(s) targets.
func markdown(src string) string {
	r := &renderer{lines: strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n"), ids: map[string]int{}}
	for ; r.i < len(r.lines); r.i++ {
		line := r.lines[r.i]
		trim := strings.TrimSpace(line)
		switch {
		case isBlockStart(line):
			r.flush()
			r.closeList()
			r.block(line)
		case r.isItem(line):
			r.flush()
			r.item(line)
		default:
			if r.list != "" && strings.HasPrefix(line, "  ") {
				r.closeList() // a lazy continuation of the last item: start a paragraph
			}
			r.para = append(r.para, trim)
		}
	}
	r.flush()
	r.closeList()
	return r.b.String()
}

// block writes a fenced code block, a heading, a table or a quote (a
// blank line writes nothing).
func (r *renderer) block(line string) {
	trim := strings.TrimSpace(line)
	switch {
	case strings.HasPrefix(trim, "```"):
		r.code()
	case trim == "":
	case headingRE.MatchString(line):
		r.heading(line)
	case strings.HasPrefix(trim, "|"):
		r.table()
	default:
		r.quote()
	}
}

// isBlockStart reports whether a line opens a block other than a list
// item or a paragraph (or is blank, which ends one).
func isBlockStart(line string) bool {
	trim := strings.TrimSpace(line)
	return trim == "" || strings.HasPrefix(trim, "```") || headingRE.MatchString(line) ||
		strings.HasPrefix(trim, "|") || strings.HasPrefix(trim, "> ") || trim == ">"
}

// renderer is the state of one rendering: the lines, the line being read,
// the paragraph gathered, the open list ("ul" or "ol") and the heading ids
// given.
type renderer struct {
	b     strings.Builder
	lines []string
	i     int
	para  []string
	list  string
	ids   map[string]int
}

func (r *renderer) isItem(line string) bool {
	return bulletRE.MatchString(line) || numberRE.MatchString(line)
}

func (r *renderer) flush() {
	if len(r.para) > 0 {
		r.b.WriteString("<p>" + inline(strings.Join(r.para, " ")) + "</p>\n")
		r.para = nil
	}
}

func (r *renderer) closeList() {
	if r.list != "" {
		r.b.WriteString("</" + r.list + ">\n")
		r.list = ""
	}
}

// code copies a fenced block, escaped.
func (r *renderer) code() {
	r.b.WriteString("<pre><code>")
	for r.i++; r.i < len(r.lines) && !strings.HasPrefix(strings.TrimSpace(r.lines[r.i]), "```"); r.i++ {
		r.b.WriteString(html.EscapeString(r.lines[r.i]) + "\n")
	}
	r.b.WriteString("</code></pre>\n")
}

// heading writes a heading with an id unique in the page.
func (r *renderer) heading(line string) {
	m := headingRE.FindStringSubmatch(line)
	n := strconv.Itoa(len(m[1]))
	id := slug(m[2])
	if k := r.ids[id]; k > 0 {
		r.ids[id]++
		id = id + "-" + strconv.Itoa(k)
	} else {
		r.ids[id] = 1
	}
	r.b.WriteString("<h" + n + ` id="` + id + `">` + inline(m[2]) + "</h" + n + ">\n")
}

// table writes the rows that start with a bar; a separator row under the
// first makes it the head.
func (r *renderer) table() {
	var rows []string
	for ; r.i < len(r.lines) && strings.HasPrefix(strings.TrimSpace(r.lines[r.i]), "|"); r.i++ {
		rows = append(rows, strings.TrimSpace(r.lines[r.i]))
	}
	r.i--
	head := len(rows) > 1 && separatorRE.MatchString(rows[1])
	r.b.WriteString("<table>\n")
	for k, row := range rows {
		if k == 1 && head {
			continue
		}
		tag := "td"
		if k == 0 && head {
			tag = "th"
		}
		r.b.WriteString("<tr>")
		for _, c := range strings.Split(strings.Trim(row, "|"), "|") {
			r.b.WriteString("<" + tag + ">" + inline(strings.TrimSpace(c)) + "</" + tag + ">")
		}
		r.b.WriteString("</tr>\n")
	}
	r.b.WriteString("</table>\n")
}

// quote writes the lines that start with > as one quoted paragraph.
func (r *renderer) quote() {
	var quote []string
	for ; r.i < len(r.lines) && strings.HasPrefix(strings.TrimSpace(r.lines[r.i]), ">"); r.i++ {
		quote = append(quote, strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(r.lines[r.i]), ">")))
	}
	r.i--
	r.b.WriteString("<blockquote><p>" + inline(strings.Join(quote, " ")) + "</p></blockquote>\n")
}

// item writes a list item with its indented continuation lines, opening
// the list if needed.
func (r *renderer) item(line string) {
	kind, text := "ul", ""
	if m := bulletRE.FindStringSubmatch(line); m != nil {
		text = m[1]
	} else {
		kind, text = "ol", numberRE.FindStringSubmatch(line)[1]
	}
	if r.list != kind {
		r.closeList()
		r.b.WriteString("<" + kind + ">\n")
		r.list = kind
	}
	for r.i+1 < len(r.lines) {
		next := r.lines[r.i+1]
		if !strings.HasPrefix(next, "  ") || strings.TrimSpace(next) == "" || r.isItem(next) {
			break
		}
		r.i++
		text += " " + strings.TrimSpace(next)
	}
	r.b.WriteString("<li>" + inline(text) + "</li>\n")
}

var (
	headingRE   = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	separatorRE = regexp.MustCompile(`^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?$`)
	bulletRE    = regexp.MustCompile(`^\s*[*-]\s+(.*)$`)
	numberRE    = regexp.MustCompile(`^\s*\d+\.\s+(.*)$`)
	codeRE      = regexp.MustCompile("`([^`]+)`")
	boldRE      = regexp.MustCompile(`\*\*([^*]+)\*\*`)
	italicRE    = regexp.MustCompile(`\*([^*\s][^*]*)\*`)
	linkRE      = regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)
	slugRE      = regexp.MustCompile(`[^a-z0-9]+`)
)

// inline renders code spans, bold, italics and links in escaped text.
func inline(s string) string {
	// Code spans first, kept aside so their text is not formatted.
	var codes []string
	s = codeRE.ReplaceAllStringFunc(s, func(m string) string {
		codes = append(codes, "<code>"+html.EscapeString(m[1:len(m)-1])+"</code>")
		return "\x00" + strconv.Itoa(len(codes)-1) + "\x00"
	})
	s = html.EscapeString(s)
	s = boldRE.ReplaceAllString(s, "<strong>$1</strong>")
	s = italicRE.ReplaceAllString(s, "<em>$1</em>")
	s = linkRE.ReplaceAllStringFunc(s, func(m string) string {
		p := linkRE.FindStringSubmatch(m)
		u := p[2]
		if !safeLink(u) {
			return p[1]
		}
		return `<a href="` + u + `">` + p[1] + "</a>"
	})
	for k, c := range codes {
		s = strings.Replace(s, "\x00"+strconv.Itoa(k)+"\x00", c, 1)
	}
	return s
}

// safeLink accepts relative links, anchors and http(s) addresses.
func safeLink(u string) bool {
	if strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "#") {
		return true
	}
	return !strings.Contains(u, ":") && !strings.HasPrefix(u, "//")
}

// slug makes a heading's id: lower case, runs of other characters as one
// hyphen ("Ruleset 1880-12" → "ruleset-1880-12").
func slug(s string) string {
	return strings.Trim(slugRE.ReplaceAllString(strings.ToLower(s), "-"), "-")
}
