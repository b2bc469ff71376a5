package facade

// Tags in tests are not read.
//
//scm:operation notAnOperation
func (c *Client) testOnly() {}
