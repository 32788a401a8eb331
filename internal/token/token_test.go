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

// TestSum: Sum is Hash in an array, and Matches what Hash writes of the
// same secret alone.
func TestSum(t *testing.T) {
	a, b := New(16), New(16)
	sum := Sum(a)
	if string(sum[:]) != Hash(a) {
		t.Fatalf("Sum %q, Hash %q", sum, Hash(a))
	}
	if !Matches(&sum, Hash(a)) || Matches(&sum, Hash(b)) || Matches(&sum, "") || Matches(&sum, Hash(a)[:63]) || Matches(&sum, Hash(a)+"0") {
		t.Fatal("Matches must hold for the secret's hash alone")
	}
	h := Hash(a)
	if n := testing.AllocsPerRun(100, func() { s := Sum(a); Matches(&s, h) }); n != 0 {
		t.Errorf("Sum and Matches allocate: %v a check", n)
	}
}
