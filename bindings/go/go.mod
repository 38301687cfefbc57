module weft.dev/weft

go 1.21
