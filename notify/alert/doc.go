// Package alert is the form in which pmie hands a fired action to its
// notifier: an Alert made from an actions.Event (rule, action, time,
// message, hosts, instances and values bound), and its JSON encoding.
//
// It is kept apart from package notify, which routes and sends alerts,
// so that pmie itself links only this: the routing conditions, the
// configuration reader and the HTTP client live in the pmie-notify
// process (cmd/pmie-notify), and cost pmie nothing in memory.
package alert
