// Package auth holds what accounts need apart from storage: passwords
// hashed with argon2id, the rules for usernames and passwords, and limits
// on attempts per key (an address, an account).
package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// Argon2id parameters: OWASP's first recommendation (19 MiB, two passes,
// one lane), a 16-byte salt and a 32-byte key.
const (
	argonTime    = 2
	argonMemory  = 19 * 1024 // KiB
	argonThreads = 1
	saltLen      = 16
	keyLen       = 32
	// maxMemory bounds the memory a stored hash may ask for when checked,
	// so that a doctored record cannot exhaust the server.
	maxMemory = 256 * 1024
)

// Password length limits, in characters.
const (
	MinPassword = 8
	MaxPassword = 256
)

// ErrMalformedHash is returned for a stored hash that is not argon2id's
// encoded form.
var ErrMalformedHash = errors.New("auth: malformed password hash")

// HashPassword hashes a password with argon2id and a fresh salt, in the
// encoded form $argon2id$v=19$m=…,t=…,p=…$salt$key.
func HashPassword(password string) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, keyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// CheckPassword reports whether password matches an encoded hash, in
// constant time for a given hash.
func CheckPassword(encoded, password string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return false, ErrMalformedHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, ErrMalformedHash
	}
	var memory, time uint32
	var threads uint8
	if n, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &memory, &time, &threads); err != nil || n != 3 ||
		memory < 8 || memory > maxMemory || time < 1 || time > 16 || threads < 1 || threads > 16 {
		return false, ErrMalformedHash
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil || len(salt) < 8 || len(salt) > 64 {
		return false, ErrMalformedHash
	}
	key, err := b64.DecodeString(parts[5])
	if err != nil || len(key) < 16 || len(key) > 64 {
		return false, ErrMalformedHash
	}
	got := argon2.IDKey([]byte(password), salt, time, memory, threads, uint32(len(key)))
	return subtle.ConstantTimeCompare(got, key) == 1, nil
}

// CheckNewPassword says what is wrong with a password chosen for an
// account, or nil: valid text (JSON turns invalid bytes into U+FFFD, so
// two different invalid passwords would be one: it is refused), 8 to 256
// characters, no control characters, not only spaces, and not one of
// the commonest passwords.
func CheckNewPassword(password string) error {
	n := utf8.RuneCountInString(password)
	switch {
	case !utf8.ValidString(password) || strings.ContainsRune(password, utf8.RuneError):
		return errors.New("the password is not valid text")
	case n < MinPassword:
		return fmt.Errorf("the password needs at least %d characters", MinPassword)
	case n > MaxPassword:
		return fmt.Errorf("the password may have at most %d characters", MaxPassword)
	case strings.TrimSpace(password) == "":
		return errors.New("the password needs more than spaces")
	case strings.IndexFunc(password, unicode.IsControl) >= 0:
		return errors.New("the password may not hold control characters")
	case common[strings.ToLower(password)]:
		return errors.New("this password is among the commonest: choose another")
	}
	return nil
}

// common are the commonest passwords of 8 characters or more (the leaked
// lists' heads), refused for accounts.
var common = func() map[string]bool {
	m := map[string]bool{}
	for _, p := range strings.Fields(`12345678 123456789 1234567890 12345678910 password password1 password123 passw0rd
		qwertyuiop qwerty123 qwertyui 11111111 00000000 88888888 87654321 iloveyou1 sunshine1 princess1 football1
		baseball1 welcome1 welcome123 abc12345 abcd1234 1q2w3e4r 1qaz2wsx zaq12wsx qazwsxedc asdfghjkl asdfasdf
		letmein1 trustno1 monkey123 dragon123 superman1 computer1 internet michael1 jennifer1 starwars1 whatever1
		aaaaaaaa 1234qwer q1w2e3r4 admin123 administrator changeme`) {
		m[p] = true
	}
	return m
}()

// Username limits, in characters.
const (
	MinUsername = 2
	MaxUsername = 20
)

// CheckUsername says what is wrong with a username, or nil: 2 to 20
// letters, digits, hyphens and underscores, starting with a letter or a
// digit. Names are unique without regard to case (see UsernameKey).
func CheckUsername(name string) error {
	n := utf8.RuneCountInString(name)
	if n < MinUsername || n > MaxUsername {
		return fmt.Errorf("a username has %d to %d characters", MinUsername, MaxUsername)
	}
	for i, r := range name {
		ok := r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) || i > 0 && (r == '-' || r == '_')
		if !ok {
			return fmt.Errorf("a username has only letters a–z, digits, - and _, and starts with a letter or digit (not %q)", r)
		}
	}
	return nil
}

// UsernameKey is the form under which a username is unique.
func UsernameKey(name string) string { return strings.ToLower(name) }
