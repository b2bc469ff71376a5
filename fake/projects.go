package fake

import (
	"context"
	"net/http"
	"strings"

	"github.com/scmodel/scmgo/fake/internal/genserver"
	"github.com/scmodel/scmgo/ids"
)

// projectJSON is a project as the real server answers it. It is the fields
// of gen.ApiProjectResponse with creationDate written the way the server
// writes it, in UTC with exactly six decimals (2026-03-10T16:19:55.145394Z),
// which time.Time's own encoding does not do (it drops trailing zeros).
type projectJSON struct {
	Accessible    bool          `json:"accessible"`
	CreationDate  string        `json:"creationDate"`
	CurrentUserID *int64        `json:"currentUserId"`
	Deleted       bool          `json:"deleted"`
	ID            ids.ProjectID `json:"id"`
	Name          string        `json:"name"`
	OwnerUserID   int64         `json:"ownerUserId"`
}

// creationDateLayout is the real server's creationDate: microseconds, Z.
const creationDateLayout = "2006-01-02T15:04:05.000000Z"

func (w *world) projectResponse(p *project, user string) projectJSON {
	return projectJSON{Accessible: true, CreationDate: p.created.UTC().Format(creationDateLayout),
		CurrentUserID: w.currentUser(p.id, user), ID: p.id, Name: p.name, OwnerUserID: p.owner}
}

// currentUser is the user who has the project open: the caller when it is
// one of them, else the one with the smallest id; nil when nobody has.
func (w *world) currentUser(projectID ids.ProjectID, caller string) *int64 {
	if w.open[caller] == projectID {
		return ptr(userID(caller))
	}
	var found *int64
	for u, p := range w.open {
		if id := userID(u); p == projectID && (found == nil || id < *found) {
			found = ptr(id)
		}
	}
	return found
}

// projectsResponse answers getProjects; projectResponse the operations that
// answer one project.
type (
	projectsResponse []projectJSON
	projectResponse  projectJSON
)

func (r projectsResponse) VisitGetProjectsResponse(w http.ResponseWriter) error {
	return writeJSON(w, r)
}
func (r projectResponse) VisitOpenProjectResponse(w http.ResponseWriter) error {
	return writeJSON(w, r)
}
func (r projectResponse) VisitCloseProjectResponse(w http.ResponseWriter) error {
	return writeJSON(w, r)
}
func (r projectResponse) VisitFindAndOpenProjectByNameResponse(w http.ResponseWriter) error {
	return writeJSON(w, r)
}

func (s *service) GetProjects(ctx context.Context, _ genserver.GetProjectsRequestObject) (genserver.GetProjectsResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	out := make(projectsResponse, 0, len(w.projects))
	for _, p := range w.projects {
		out = append(out, w.projectResponse(p, userFrom(ctx)))
	}
	return out, nil
}

func (s *service) OpenProject(ctx context.Context, req genserver.OpenProjectRequestObject) (genserver.OpenProjectResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	p, err := w.project(req.Params.ProjectId)
	if err != nil {
		return nil, err
	}
	w.open[userFrom(ctx)] = p.id
	return projectResponse(w.projectResponse(p, userFrom(ctx))), nil
}

// FindAndOpenProjectByName opens the first project (by id) whose name equals
// projectName, or, with fullMatch=false, contains it ignoring case.
func (s *service) FindAndOpenProjectByName(ctx context.Context, req genserver.FindAndOpenProjectByNameRequestObject) (genserver.FindAndOpenProjectByNameResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	full := req.Params.FullMatch
	for _, p := range w.projects {
		if nameMatches(p.name, req.Params.ProjectName, full) {
			w.open[userFrom(ctx)] = p.id
			return projectResponse(w.projectResponse(p, userFrom(ctx))), nil
		}
	}
	return nil, notFound("projectName %s: no project matches (fullMatch=%t)", quoteText(req.Params.ProjectName), full)
}

func nameMatches(name, want string, full bool) bool {
	if full {
		return name == want
	}
	return strings.Contains(strings.ToLower(name), strings.ToLower(want))
}

// CloseProject closes the caller's open project and answers it as it is
// then (currentUserId null unless another user has it open).
func (s *service) CloseProject(ctx context.Context, _ genserver.CloseProjectRequestObject) (genserver.CloseProjectResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	id, ok := w.open[userFrom(ctx)]
	if !ok {
		return nil, failure("no project is open")
	}
	delete(w.open, userFrom(ctx))
	p, err := w.project(id)
	if err != nil {
		return nil, err
	}
	return projectResponse(w.projectResponse(p, userFrom(ctx))), nil
}
