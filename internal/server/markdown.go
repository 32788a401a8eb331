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
	var b strings.Builder
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	var para []string
	list := "" // "ul" or "ol" while a list is open
	flush := func() {
		if len(para) > 0 {
			b.WriteString("<p>" + inline(strings.Join(para, " ")) + "</p>\n")
			para = nil
		}
	}
	closeList := func() {
		if list != "" {
			b.WriteString("</" + list + ">\n")
			list = ""
		}
	}
	ids := map[string]int{}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trim := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trim, "```"):
			flush()
			closeList()
			b.WriteString("<pre><code>")
			for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "```"); i++ {
				b.WriteString(html.EscapeString(lines[i]) + "\n")
			}
			b.WriteString("</code></pre>\n")
		case trim == "":
			flush()
			closeList()
		case headingRE.MatchString(line):
			flush()
			closeList()
			m := headingRE.FindStringSubmatch(line)
			n := len(m[1])
			id := slug(m[2])
			if k := ids[id]; k > 0 {
				ids[id]++
				id = id + "-" + strconv.Itoa(k)
			} else {
				ids[id] = 1
			}
			b.WriteString("<h" + strconv.Itoa(n) + ` id="` + id + `">` + inline(m[2]) + "</h" + strconv.Itoa(n) + ">\n")
		case strings.HasPrefix(trim, "|"):
			flush()
			closeList()
			var rows []string
			for ; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
				rows = append(rows, strings.TrimSpace(lines[i]))
			}
			i--
			b.WriteString("<table>\n")
			for k, row := range rows {
				cells := strings.Split(strings.Trim(row, "|"), "|")
				if k == 1 && separatorRE.MatchString(row) {
					continue
				}
				tag := "td"
				if k == 0 && len(rows) > 1 && separatorRE.MatchString(rows[1]) {
					tag = "th"
				}
				b.WriteString("<tr>")
				for _, c := range cells {
					b.WriteString("<" + tag + ">" + inline(strings.TrimSpace(c)) + "</" + tag + ">")
				}
				b.WriteString("</tr>\n")
			}
			b.WriteString("</table>\n")
		case strings.HasPrefix(trim, "> ") || trim == ">":
			flush()
			closeList()
			var quote []string
			for ; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), ">"); i++ {
				quote = append(quote, strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(lines[i]), ">")))
			}
			i--
			b.WriteString("<blockquote><p>" + inline(strings.Join(quote, " ")) + "</p></blockquote>\n")
		case bulletRE.MatchString(line) || numberRE.MatchString(line):
			flush()
			kind, text := "ul", ""
			if m := bulletRE.FindStringSubmatch(line); m != nil {
				text = m[1]
			} else {
				kind, text = "ol", numberRE.FindStringSubmatch(line)[1]
			}
			if list != kind {
				closeList()
				b.WriteString("<" + kind + ">\n")
				list = kind
			}
			// Continuation lines, indented, belong to the item.
			for i+1 < len(lines) && strings.HasPrefix(lines[i+1], "  ") && strings.TrimSpace(lines[i+1]) != "" &&
				!bulletRE.MatchString(lines[i+1]) && !numberRE.MatchString(lines[i+1]) {
				i++
				text += " " + strings.TrimSpace(lines[i])
			}
			b.WriteString("<li>" + inline(text) + "</li>\n")
		default:
			if list != "" && strings.HasPrefix(line, "  ") {
				// A lazy continuation of the last item: start a paragraph.
				closeList()
			}
			para = append(para, trim)
		}
	}
	flush()
	closeList()
	return b.String()
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
