package fake

import (
	"context"
	"strings"

	"github.com/scmodel/scmgo/gen"
)

func (w *world) projectResponse(p *project, user string) gen.ApiProjectResponse {
	return gen.ApiProjectResponse{Id: p.id, Name: p.name, Description: ptr(p.about), Open: ptr(w.open[user] == p.id)}
}

func (s *service) GetProjects(ctx context.Context, _ gen.GetProjectsRequestObject) (gen.GetProjectsResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	out := make(gen.GetProjects200JSONResponse, 0, len(w.projects))
	for _, p := range w.projects {
		out = append(out, w.projectResponse(p, userFrom(ctx)))
	}
	return out, nil
}

func (s *service) OpenProject(ctx context.Context, req gen.OpenProjectRequestObject) (gen.OpenProjectResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	p, err := w.project(req.Params.ProjectId)
	if err != nil {
		return nil, err
	}
	w.open[userFrom(ctx)] = p.id
	return gen.OpenProject200JSONResponse(w.projectResponse(p, userFrom(ctx))), nil
}

// FindAndOpenProjectByName opens the first project (by id) whose name equals
// projectName, or, with fullMatch=false, contains it ignoring case.
func (s *service) FindAndOpenProjectByName(ctx context.Context, req gen.FindAndOpenProjectByNameRequestObject) (gen.FindAndOpenProjectByNameResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	full := req.Params.FullMatch
	for _, p := range w.projects {
		if nameMatches(p.name, req.Params.ProjectName, full) {
			w.open[userFrom(ctx)] = p.id
			return gen.FindAndOpenProjectByName200JSONResponse(w.projectResponse(p, userFrom(ctx))), nil
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

func (s *service) CloseProject(ctx context.Context, _ gen.CloseProjectRequestObject) (gen.CloseProjectResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	id, ok := w.open[userFrom(ctx)]
	if !ok {
		return nil, conflict("no project is open")
	}
	delete(w.open, userFrom(ctx))
	p, err := w.project(id)
	if err != nil {
		return nil, err
	}
	return gen.CloseProject200JSONResponse(w.projectResponse(p, userFrom(ctx))), nil
}
