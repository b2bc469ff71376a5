package main

import "github.com/spf13/cobra"

// addWorkflowCommands adds the commands for the common jobs.
func (a *app) addWorkflowCommands(root *cobra.Command) {
}
