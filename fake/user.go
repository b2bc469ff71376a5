package fake

import (
	"context"
	"strings"
	"time"

	"github.com/scmodel/scmgo/fake/internal/genserver"
)

// GetCurrentUser answers the caller as the real server does: the first
// key's user is id 1, "demo", "Demo", with an empty last name (as seen).
func (s *service) GetCurrentUser(ctx context.Context, _ genserver.GetCurrentUserRequestObject) (genserver.GetCurrentUserResponseObject, error) {
	u := userFrom(ctx)
	return genserver.GetCurrentUser200JSONResponse{Id: userID(u), Username: u, FirstName: strings.ToUpper(u[:1]) + u[1:],
		LastName: "", Email: u + "@example.com"}, nil
}

// RequestLicense grants the user a license; asking again while holding one
// grants it again.
func (s *service) RequestLicense(ctx context.Context, _ genserver.RequestLicenseRequestObject) (genserver.RequestLicenseResponseObject, error) {
	w := s.w
	now := w.lock()
	defer w.unlock()
	u := userFrom(ctx)
	w.licensed[u] = true
	return genserver.RequestLicense200JSONResponse{Granted: true, LicenseType: ptr("PROFESSIONAL"), Username: &u, ExpiresAt: ptr(now.Add(24 * time.Hour).UTC())}, nil
}

// DropLicense drops the user's license; dropped is false when none was held.
func (s *service) DropLicense(ctx context.Context, _ genserver.DropLicenseRequestObject) (genserver.DropLicenseResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	u := userFrom(ctx)
	held := w.licensed[u]
	delete(w.licensed, u)
	msg := "license dropped"
	if !held {
		msg = "no license was held"
	}
	return genserver.DropLicense200JSONResponse{Dropped: held, Message: &msg}, nil
}

// dictionary is what translate knows, into German (the reference's example
// language).
var dictionary = map[string]string{
	"project": "Projekt", "scenario": "Szenario", "experiment": "Experiment", "run": "Lauf",
	"result": "Ergebnis", "table": "Tabelle", "cost": "Kosten", "demand": "Nachfrage",
	"site": "Standort", "vehicle": "Fahrzeug", "order": "Auftrag", "shipment": "Sendung",
	"milk run": "Milkrun", "customer": "Kunde", "product": "Produkt", "variation": "Variation",
}

// Translate looks the string up ignoring case; an unknown string comes back
// unchanged.
func (s *service) Translate(_ context.Context, req genserver.TranslateRequestObject) (genserver.TranslateResponseObject, error) {
	if t, ok := dictionary[strings.ToLower(strings.TrimSpace(req.Params.StringToBeTranslated))]; ok {
		return genserver.Translate200JSONResponse(t), nil
	}
	return genserver.Translate200JSONResponse(req.Params.StringToBeTranslated), nil
}
