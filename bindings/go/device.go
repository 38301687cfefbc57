package weft

import "fmt"

// Device is a device type (1 cpu, 2 gpu, 3 cpu_pinned) and an index.
type Device struct {
	Type int
	ID   int
}

// CPU is the host device, cpu(0).
var CPU = Device{Type: 1, ID: 0}

// GPU gives gpu(id).
func GPU(id int) Device { return Device{Type: 2, ID: id} }

func (d Device) String() string {
	switch d.Type {
	case 1:
		return fmt.Sprintf("cpu(%d)", d.ID)
	case 2:
		return fmt.Sprintf("gpu(%d)", d.ID)
	case 3:
		return fmt.Sprintf("cpu_pinned(%d)", d.ID)
	}
	return fmt.Sprintf("device(%d, %d)", d.Type, d.ID)
}
