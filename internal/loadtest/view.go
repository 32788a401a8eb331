package loadtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"time"
	"unicode/utf8"
)

// view is what the load reads of a game's view. Its legal actions, most
// of a view's bytes, are kept as they came, one slice each, and only the
// one played is decoded: decoding every view whole took the client more
// processor time than the server took to make it, and where both share a
// machine the client's time is the server's loss.
type view struct {
	Ply    int    `json:"ply"`
	Status string `json:"status"`
	// ToAct is the seat to act (the game's player number).
	ToAct int `json:"to_act"`
	// legal are the legal actions' JSON objects (readView fills it).
	legal [][]byte
	// at is when its frame came off the WebSocket (zero for a view
	// read otherwise).
	at time.Time
}

// readView reads a view from its JSON: the fields the load needs are
// decoded, the legal actions split, and the rest skipped.
func readView(data []byte) (view, error) { return readViewTo(data, nil) }

// readViewTo is readView, the legal actions' slices appended to legal[:0]
// (reused, where the views read before are done with).
func readViewTo(data []byte, legal [][]byte) (view, error) {
	var v view
	isNull, err := object(data, errNotView, func(key []byte, i int) (end int, err error) {
		// Keys match as encoding/json matches them: in any case.
		switch {
		case bytes.EqualFold(key, []byte("legal")):
			v.legal, end, err = elements(data, i, legal[:0])
			return end, err
		case bytes.EqualFold(key, []byte("ply")):
			end, err = readInt(data, i, &v.Ply)
		case bytes.EqualFold(key, []byte("to_act")):
			end, err = readInt(data, i, &v.ToAct)
		case bytes.EqualFold(key, []byte("status")):
			if end, err = skip(data, i); err == nil {
				v.Status, err = readString(data[i:end])
			}
		default:
			end, err = skip(data, i)
		}
		return end, err
	})
	if isNull {
		return view{}, nil // as encoding/json reads it: nothing
	}
	return v, err
}

// readHistory reads a view's history (its actions' texts) from its JSON,
// as encoding/json would decode the view's History, the rest skipped
// unread: the lost actions are counted from it alone.
func readHistory(data []byte) ([]string, error) {
	var history []string
	isNull, err := object(data, errNotView, func(key []byte, i int) (int, error) {
		end, err := skip(data, i)
		if err == nil && bytes.EqualFold(key, []byte("history")) {
			history = nil // the last of repeated keys wins, as in encoding/json
			err = json.Unmarshal(data[i:end], &history)
		}
		return end, err
	})
	if isNull {
		return nil, nil
	}
	return history, err
}

// object reads the JSON object that is data, whole, calling field with
// each member's key and where its value begins, which returns where the
// value ends; notObject is the error for what is no object. A null is
// nothing, as encoding/json reads it: isNull.
func object(data []byte, notObject error, field func(key []byte, i int) (int, error)) (isNull bool, err error) {
	if i := space(data, 0); bytes.HasPrefix(data[i:], []byte("null")) && trailing(data, i+4) == nil {
		return true, nil
	}
	end, err := members(data, space(data, 0), '{', '}', func(i int) (int, error) {
		end, err := skip(data, i)
		if err != nil || data[i] != '"' {
			return 0, notObject
		}
		key, err := keyOf(data[i:end])
		if err != nil {
			return 0, err
		}
		i = space(data, end)
		if i >= len(data) || data[i] != ':' {
			return 0, notObject
		}
		return field(key, space(data, i+1))
	})
	if err != nil {
		return false, err
	}
	return false, trailing(data, end)
}

var errNotView = errors.New("not a view: a JSON object was expected")

// keyOf is the text of the JSON string s: s itself, less its quotes,
// where it has no escape, else as encoding/json decodes it.
func keyOf(s []byte) ([]byte, error) {
	if plain(s) {
		return s[1 : len(s)-1], nil
	}
	var key string
	err := json.Unmarshal(s, &key)
	return []byte(key), err
}

// plain says whether the JSON string s (quotes included) is its text as
// it stands: no escape, no control character, valid UTF-8.
func plain(s []byte) bool {
	for _, c := range s[1 : len(s)-1] {
		if c < 0x20 || c == '\\' {
			return false
		}
	}
	return utf8.Valid(s)
}

// readString decodes the JSON value s into a string, as encoding/json
// does.
func readString(s []byte) (string, error) {
	if len(s) >= 2 && s[0] == '"' && plain(s) {
		return string(s[1 : len(s)-1]), nil
	}
	var out string
	err := json.Unmarshal(s, &out)
	return out, err
}

// readInt decodes the JSON value at data[i] into n, as encoding/json
// does, and returns where it ends.
func readInt(data []byte, i int, n *int) (int, error) {
	end, err := skip(data, i)
	if err != nil {
		return 0, err
	}
	if x, err := strconv.Atoi(string(data[i:end])); err == nil && data[i] != '+' {
		*n = x
		return end, nil
	}
	return end, json.Unmarshal(data[i:end], n)
}

// actionText is the text of a legal action as readView kept it.
func actionText(a []byte) (string, error) {
	text := ""
	_, err := object(a, errNotAction, func(key []byte, i int) (int, error) {
		end, err := skip(a, i)
		if err != nil {
			return 0, err
		}
		if bytes.EqualFold(key, []byte("text")) {
			switch {
			case a[i] == '"':
				text, err = readString(a[i:end])
			case string(a[i:end]) != "null": // null leaves it be, as encoding/json does
				return 0, errNotAction
			}
		}
		return end, err
	})
	if err != nil {
		return "", err
	}
	return text, nil
}

var errNotAction = errors.New("not a legal action: a JSON object was expected")

// elements splits the JSON array (null: none) at data[i] into its
// elements, each checked as JSON, appended to out, and returns where it
// ends.
func elements(data []byte, i int, out [][]byte) ([][]byte, int, error) {
	if bytes.HasPrefix(data[i:], []byte("null")) {
		end, err := skip(data, i)
		return nil, end, err
	}
	if out == nil {
		out = make([][]byte, 0, 128)
	}
	end, err := members(data, i, '[', ']', func(i int) (int, error) {
		end, err := skip(data, i)
		if err == nil {
			out = append(out, data[i:end:end])
		}
		return end, err
	})
	if err != nil {
		return nil, 0, err
	}
	return out, end, nil
}

// members walks the JSON object or array at data[i], between brackets
// open and close, calling member at each member's first byte for where
// it ends; what follows it must be a comma or the closing bracket. It
// returns where the closing bracket ends.
func members(data []byte, i int, open, close byte, member func(i int) (end int, err error)) (int, error) {
	if i >= len(data) || data[i] != open {
		return 0, errNotView
	}
	i = space(data, i+1)
	if i < len(data) && data[i] == close {
		return i + 1, nil
	}
	for {
		end, err := member(i)
		if err != nil {
			return 0, err
		}
		i = space(data, end)
		switch {
		case i < len(data) && data[i] == ',':
			i = space(data, i+1)
		case i < len(data) && data[i] == close:
			return i + 1, nil
		default:
			return 0, errNotView
		}
	}
}

// trailing says whether anything but space follows at i.
func trailing(data []byte, i int) error {
	if space(data, i) != len(data) {
		return errNotView
	}
	return nil
}

func space(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// skip returns the end of the JSON value at data[i]: its brackets and
// strings followed, and the value checked by encoding/json where it is a
// number or a word (true, false, null). An object's or a list's content
// is checked only where it is read.
func skip(data []byte, i int) (int, error) {
	if i >= len(data) {
		return 0, errNotView
	}
	switch data[i] {
	case '"':
		return stringEnd(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				// A string's bytes are passed over here, each
				// backslash with the byte it escapes, so that an
				// escaped quote does not end the string.
				for j++; j < len(data) && data[j] != '"'; j++ {
					if data[j] == '\\' {
						j++ // the escaped byte, a quote or not
					}
				}
				if j >= len(data) {
					return 0, errNotView
				}
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, errNotView
	}
	j := i
	for j < len(data) && data[j] != ',' && data[j] != '}' && data[j] != ']' && data[j] != ' ' && data[j] != '\n' && data[j] != '\t' && data[j] != '\r' {
		j++
	}
	if !json.Valid(data[i:j]) {
		return 0, errNotView
	}
	return j, nil
}

// stringEnd returns the end of the JSON string whose quote is data[i]:
// the next quote not escaped.
func stringEnd(data []byte, i int) (int, error) {
	for j := i + 1; j < len(data); {
		k := bytes.IndexByte(data[j:], '"')
		if k < 0 {
			break
		}
		// The quote ends the string unless an odd number of
		// backslashes comes before it.
		q, n := j+k, 0
		for q-1-n > i && data[q-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return q + 1, nil
		}
		j = q + 1
	}
	return 0, errNotView
}
