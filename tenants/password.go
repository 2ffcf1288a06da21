package tenants

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"

	"github.com/ferry-dev/ferry"
)

// Password length limits. bcrypt ignores bytes past 72, so longer
// passwords are refused rather than silently truncated.
const (
	minPasswordLen = 10
	maxPasswordLen = 72
)

func validatePassword(pw string) error {
	if !utf8.ValidString(pw) {
		return ferry.Invalid("password", "password must be valid UTF-8")
	}
	if len(pw) < minPasswordLen {
		return ferry.Invalid("password", "password must be at least %d characters", minPasswordLen)
	}
	if len(pw) > maxPasswordLen {
		return ferry.Invalid("password", "password must be at most %d bytes", maxPasswordLen)
	}
	return nil
}

func hashPassword(pw string, cost int) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(pw), cost)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return string(h), nil
}

// checkPassword reports whether pw matches hash.
func checkPassword(hash, pw string) (bool, error) {
	err := bcrypt.CompareHashAndPassword([]byte(hash), []byte(pw))
	if errors.Is(err, bcrypt.ErrMismatchedHashAndPassword) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("compare password: %w", err)
	}
	return true, nil
}
