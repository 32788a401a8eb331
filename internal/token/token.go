// Package token makes the random secrets of the web app — game ids, seat
// secrets, invitations, session cookies — and the hashes by which the
// store keeps them.
package token

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
)

// New returns n random bytes as hex.
func New(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// idAlphabet is the letters of a game id.
const idAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789"

// ID returns a random id: 12 lower-case letters and digits.
func ID() string {
	b := make([]byte, 12)
	rand.Read(b)
	for i := range b {
		b[i] = idAlphabet[int(b[i])%len(idAlphabet)]
	}
	return string(b)
}

// ValidID reports whether id has the form ID makes.
func ValidID(id string) bool {
	if len(id) != 12 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// Hash is the hash of a secret, as it is stored.
func Hash(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(h[:])
}

// Sum is the hash of a secret as Hash writes it, held in an array: for
// a secret checked against stored hashes (a seat's, at every move), with
// nothing allocated.
func Sum(secret string) (sum [2 * sha256.Size]byte) {
	h := sha256.Sum256([]byte(secret))
	hex.Encode(sum[:], h[:])
	return sum
}

// Matches reports whether sum is hash, in constant time (in what the two
// hold; a hash of another length never matches).
func Matches(sum *[2 * sha256.Size]byte, hash string) bool {
	if len(hash) != len(sum) {
		return false
	}
	var diff byte
	for i := range sum {
		diff |= sum[i] ^ hash[i]
	}
	return subtle.ConstantTimeByteEq(diff, 0) == 1
}

// Equal compares two hashes in constant time.
func Equal(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }
