package chat

import (
	"errors"
	"testing"

	"github.com/muster-games/muster/internal/moderation"
)

// TestLinesShowWhatTheySay (hostile finding, low: direction controls and
// zero-width characters passed in chat lines): a line with a character
// that is not shown, or changes how the rest is shown, is refused; an
// emoji sequence's joiner is not one of them.
func TestLinesShowWhatTheySay(t *testing.T) {
	for _, bad := range []string{"gg\u202eevil", "a\u200bb", "\u2066isolate\u2069", "bom\ufeff", "soft\u00adhyphen"} {
		if _, err := text(bad); !errors.Is(err, moderation.ErrInvisible) {
			t.Errorf("%q: %v, want ErrInvisible", bad, err)
		}
	}
	for _, good := range []string{"good game", "👨\u200d👩\u200d👧 family", "вечер", "שלום"} {
		if got, err := text(good); err != nil || got != good {
			t.Errorf("%q: %q %v", good, got, err)
		}
	}
}
