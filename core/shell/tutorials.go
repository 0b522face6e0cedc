package shell

import (
	"embed"
	"io/fs"

	"daemonlab/core/cluster"
)

// tutorials are the manifests the seed tutorials cat and apply by file name, as they write
// them (see each file's comment).
//
//go:embed tutorials/*.yaml
var tutorials embed.FS

// WriteTutorials puts the tutorials' files into the workspace, as the sandbox starts with them:
// daemonset.yaml, fluentd-elasticsearch.yaml and the three QoS pods.
func WriteTutorials(c *cluster.Cluster) error {
	entries, err := fs.ReadDir(tutorials, "tutorials")
	if err != nil {
		return err
	}
	for _, e := range entries {
		data, err := fs.ReadFile(tutorials, "tutorials/"+e.Name())
		if err != nil {
			return err
		}
		if err := c.WriteFile(e.Name(), string(data), false); err != nil {
			return err
		}
	}
	return nil
}
