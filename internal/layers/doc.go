// Package layers holds no code: its test keeps the imports of the module
// pointing one way, from the command down to the leaves.
//
// Input: the packages of the module, as go list reports them.
//
// Output: a failing test for every import that points up a layer, and
// for every test helper imported by code that is not a test.
//
// Invariants: the layers, lowest first, are the leaves
// (internal), the model (crd, decl, edit, plan), documents
// (manifest), cost (costest), front ends (frontend), back ends
// (backend), the compiler (translate), verify, drivers (driver)
// and the command (cmd). A package imports from its own layer and the
// ones below: back ends consume the plan and never the compiler, which
// drives the CRD back end; the drivers wire the other back ends to the
// compiler's results.
// testkit, e2e and examples are imported by tests only.
package layers
