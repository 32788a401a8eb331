package loadtest

import (
	"encoding/json"
	"errors"
	"strings"
	"time"
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
	ToAct   int      `json:"to_act"`
	History []string `json:"history"`
	// legal are the legal actions' JSON objects (readView fills it).
	legal [][]byte
	// at is when its frame came off the WebSocket (zero for a view
	// read otherwise).
	at time.Time
}

// readView reads a view from its JSON: the fields the load needs are
// decoded, the legal actions split, and the rest skipped.
func readView(data []byte) (view, error) {
	var v view
	err := members(data, '{', '}', func(i int) (int, error) {
		end, err := skip(data, i)
		if err != nil || data[i] != '"' {
			return 0, errNotView
		}
		var key string
		if err := json.Unmarshal(data[i:end], &key); err != nil {
			return 0, err
		}
		i = space(data, end)
		if i >= len(data) || data[i] != ':' {
			return 0, errNotView
		}
		i = space(data, i+1)
		if end, err = skip(data, i); err != nil {
			return 0, err
		}
		// Keys match as encoding/json matches them: in any case.
		value := data[i:end]
		switch {
		case strings.EqualFold(key, "ply"):
			err = json.Unmarshal(value, &v.Ply)
		case strings.EqualFold(key, "status"):
			err = json.Unmarshal(value, &v.Status)
		case strings.EqualFold(key, "to_act"):
			err = json.Unmarshal(value, &v.ToAct)
		case strings.EqualFold(key, "history"):
			err = json.Unmarshal(value, &v.History)
		case strings.EqualFold(key, "legal"):
			v.legal, err = elements(value)
		}
		return end, err
	})
	return v, err
}

var errNotView = errors.New("not a view: a JSON object was expected")

// actionText is the text of a legal action as readView kept it.
func actionText(a []byte) (string, error) {
	var x struct {
		Text string `json:"text"`
	}
	err := json.Unmarshal(a, &x)
	return x.Text, err
}

// elements splits a JSON array (null: none) into its elements, each
// checked as JSON.
func elements(data []byte) ([][]byte, error) {
	if string(data) == "null" {
		return nil, nil
	}
	var out [][]byte
	err := members(data, '[', ']', func(i int) (int, error) {
		end, err := skip(data, i)
		if err == nil {
			out = append(out, data[i:end])
		}
		return end, err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// members walks the JSON object or array in data, between brackets open
// and close, calling member at each member's first byte for where it
// ends; what follows it must be a comma or the closing bracket, and
// nothing but space the closing bracket.
func members(data []byte, open, close byte, member func(i int) (end int, err error)) error {
	i := space(data, 0)
	if i >= len(data) || data[i] != open {
		return errNotView
	}
	i = space(data, i+1)
	if i < len(data) && data[i] == close {
		return trailing(data, i+1)
	}
	for {
		end, err := member(i)
		if err != nil {
			return err
		}
		i = space(data, end)
		switch {
		case i < len(data) && data[i] == ',':
			i = space(data, i+1)
		case i < len(data) && data[i] == close:
			return trailing(data, i+1)
		default:
			return errNotView
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
		for j := i + 1; j < len(data); j++ {
			switch data[j] {
			case '\\':
				j++
			case '"':
				return j + 1, nil
			}
		}
		return 0, errNotView
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				end, err := skip(data, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
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
