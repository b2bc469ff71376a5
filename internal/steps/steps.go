// Package steps tells a client's observer of the steps of work that the
// SDK's own packages build on the client: each page of a dashboard export,
// each item of a batch. Package facade installs Start; it is not part of
// the facade's API, which users call.
package steps

import "context"

// Start tells the observer of client (a *facade.Client) that a step
// begins: kind says what it is ("dashboard.page", "batch.item"), name, id
// and index (from 1) which one, each zero when none. It returns the
// context to do the step under, its calls then the step's, and the
// function to call with its error when it ends. Package facade sets it.
var Start func(client any, ctx context.Context, kind, name string, id int64, index int) (context.Context, func(error))
