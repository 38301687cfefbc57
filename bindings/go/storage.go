package weft

// #include <weft/c_api.h>
import "C"

// StorageStats are a device's memory statistics.
type StorageStats struct {
	BytesInUse     int64 // allocated and not yet freed
	PeakBytesInUse int64
	BytesPooled    int64 // freed blocks kept for reuse
	NumAllocs      int64
	NumPoolHits    int64
}

// ReadStorageStats gives dev's memory statistics.
func ReadStorageStats(dev Device) (StorageStats, error) {
	var s C.weft_storage_stats
	err := call("weft_storage_stats_get", func() C.int {
		return C.weft_storage_stats_get(C.enum_weft_dev_type(dev.Type), C.int(dev.ID), &s)
	})
	return StorageStats{int64(s.bytes_in_use), int64(s.peak_bytes_in_use), int64(s.bytes_pooled),
		int64(s.num_allocs), int64(s.num_pool_hits)}, err
}

// WaitAll waits for every pending operation and returns the first stored error.
func WaitAll() error { return call("weft_wait_all", func() C.int { return C.weft_wait_all() }) }

// Version is the library's version text.
func Version() string { return C.GoString(C.weft_version()) }
