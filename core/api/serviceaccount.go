package api

// ServiceAccount is an identity for the processes of pods (core/v1).
type ServiceAccount struct {
	TypeMeta                     `json:",inline"`
	ObjectMeta                   `json:"metadata,omitempty"`
	Secrets                      []ObjectReference      `json:"secrets,omitempty"`
	ImagePullSecrets             []LocalObjectReference `json:"imagePullSecrets,omitempty"`
	AutomountServiceAccountToken *bool                  `json:"automountServiceAccountToken,omitempty"`
}

// DefaultServiceAccountName is the service account of a pod that names none, which the
// ServiceAccount controller keeps in every namespace.
const DefaultServiceAccountName = "default"

// validateServiceAccount is ValidateServiceAccount (pkg/apis/core/validation/validation.go): the
// name is a DNS-1123 subdomain (ValidateServiceAccountName).
func validateServiceAccount(sa *ServiceAccount) ErrorList {
	return validateObjectMeta(&sa.ObjectMeta, true, IsDNS1123Subdomain)
}
