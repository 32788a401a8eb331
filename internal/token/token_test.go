package token

import "testing"

func TestIDs(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := ID()
		if !ValidID(id) || seen[id] {
			t.Fatalf("id %q: valid %v, seen before %v", id, ValidID(id), seen[id])
		}
		seen[id] = true
	}
	for _, bad := range []string{"", "abc", "ABCDEFGHIJKL", "abcdefghijk/", "abcdefghijklm"} {
		if ValidID(bad) {
			t.Errorf("ValidID(%q) = true", bad)
		}
	}
}

func TestHash(t *testing.T) {
	a, b := New(16), New(16)
	if len(a) != 32 || a == b {
		t.Fatalf("tokens %q %q", a, b)
	}
	if !Equal(Hash(a), Hash(a)) || Equal(Hash(a), Hash(b)) {
		t.Fatal("hashes of one secret must be equal, of two different")
	}
}
