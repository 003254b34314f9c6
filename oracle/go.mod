// Placeholder: the module root for `go build -modfile=modfiles/vX.Y.Z.mod` (one modfile per pinned release).
module kcompat.local/oracle

go 1.26.0
