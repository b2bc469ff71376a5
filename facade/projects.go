package facade

import (
	"context"
	"net/http"
	"strings"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// ProjectsService opens, closes and lists projects.
type ProjectsService struct{ service }

// NameMatchOptions are the optional inputs of a lookup by name. fullMatch
// is always sent, as real servers require it.
type NameMatchOptions struct {
	// PartialMatch accepts a name that contains the given one; by default
	// the whole name must match (fullMatch=true).
	PartialMatch bool
}

func (o *NameMatchOptions) fullMatch() bool { return o == nil || !o.PartialMatch }

// Close closes the project open for this user.
//
//scm:operation closeProject
func (s *ProjectsService) Close(ctx context.Context) (*gen.ApiProjectResponse, error) {
	return callPtr[gen.ApiProjectResponse](ctx, s.c, newCall(gen.OpCloseProject, gen.NewCloseProjectRequest))
}

// Open opens a project by id.
//
//scm:operation openProject
func (s *ProjectsService) Open(ctx context.Context, projectID ids.ProjectID) (*gen.ApiProjectResponse, error) {
	if err := check(gen.OpOpenProject).project(projectID).done(); err != nil {
		return nil, err
	}
	return callPtr[gen.ApiProjectResponse](ctx, s.c, newCall(gen.OpOpenProject, func(srv string) (*http.Request, error) {
		return gen.NewOpenProjectRequest(srv, &gen.OpenProjectParams{ProjectId: projectID})
	}))
}

// OpenByName finds a project by name and opens it: it changes what the
// server holds open for this user. [ProjectsService.FindByName] looks a
// project up without opening it. opts may be nil.
//
//scm:operation findAndOpenProjectByName
func (s *ProjectsService) OpenByName(ctx context.Context, name string, opts *NameMatchOptions) (*gen.ApiProjectResponse, error) {
	if err := check(gen.OpFindAndOpenProjectByName).str("projectName", name).done(); err != nil {
		return nil, err
	}
	params := &gen.FindAndOpenProjectByNameParams{ProjectName: name, FullMatch: opts.fullMatch()}
	return callPtr[gen.ApiProjectResponse](ctx, s.c, newCall(gen.OpFindAndOpenProjectByName, func(srv string) (*http.Request, error) {
		return gen.NewFindAndOpenProjectByNameRequest(srv, params)
	}))
}

// FindByName returns the projects the user can access whose name is name
// (or contains it, with PartialMatch), in the order the server lists them;
// none is an empty list. It only reads (getProjects): unlike
// [ProjectsService.OpenByName] it opens nothing. Names need not be unique,
// so it may return several. opts may be nil.
//
//scm:helper
func (s *ProjectsService) FindByName(ctx context.Context, name string, opts *NameMatchOptions) ([]gen.ApiProjectResponse, error) {
	if err := check(gen.OpGetProjects).str("projectName", name).done(); err != nil {
		return nil, err
	}
	all, err := s.List(ctx)
	if err != nil {
		return nil, err
	}
	found := []gen.ApiProjectResponse{}
	for _, p := range all {
		if p.Name == name || !opts.fullMatch() && strings.Contains(p.Name, name) {
			found = append(found, p)
		}
	}
	return found, nil
}

// List lists the projects the user can access.
//
//scm:operation getProjects
func (s *ProjectsService) List(ctx context.Context) ([]gen.ApiProjectResponse, error) {
	return callList[gen.ApiProjectResponse](ctx, s.c, newCall(gen.OpGetProjects, gen.NewGetProjectsRequest))
}
