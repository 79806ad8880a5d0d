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
// (manifest), cost (costest), front ends (frontend), the compiler
// (compiler), back ends (backend), the translation (translate: the
// compiler and the CRD back end together), verify, drivers (driver)
// and the command (cmd). A package imports from its own layer and the
// ones below: the compiler imports no back end, and back ends consume
// the plan; the drivers wire the back ends to the compiler's results.
// testkit, e2e and examples are imported by tests only.
package layers
