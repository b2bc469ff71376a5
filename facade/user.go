package facade

import (
	"context"
	"net/http"

	"github.com/scmodel/scmgo/gen"
)

// UserService reads the current user, manages the license and translates.
type UserService struct{ service }

// Current returns the user the API key represents.
//
//scm:operation getCurrentUser
func (s *UserService) Current(ctx context.Context) (*gen.ApiUserData, error) {
	return callPtr[gen.ApiUserData](ctx, s.c, newCall(gen.OpGetCurrentUser, gen.NewGetCurrentUserRequest))
}

// RequestLicense obtains a license for the user.
//
//scm:operation requestLicense
func (s *UserService) RequestLicense(ctx context.Context) (*gen.ApiLicenseData, error) {
	return callPtr[gen.ApiLicenseData](ctx, s.c, newCall(gen.OpRequestLicense, gen.NewRequestLicenseRequest))
}

// DropLicense gives the user's license back.
//
//scm:operation dropLicense
func (s *UserService) DropLicense(ctx context.Context) (*gen.ApiLicenseDropData, error) {
	return callPtr[gen.ApiLicenseDropData](ctx, s.c, newCall(gen.OpDropLicense, gen.NewDropLicenseRequest))
}

// Translate translates text into the user's language.
//
//scm:operation translate
func (s *UserService) Translate(ctx context.Context, text string) (string, error) {
	if err := check(gen.OpTranslate).str("stringToBeTranslated", text).done(); err != nil {
		return "", err
	}
	return callJSON[string](ctx, s.c, newCall(gen.OpTranslate, func(srv string) (*http.Request, error) {
		return gen.NewTranslateRequest(srv, &gen.TranslateParams{StringToBeTranslated: text})
	}))
}
