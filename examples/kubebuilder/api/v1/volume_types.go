package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Volume is a volume provisioned by a storage controller.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Volume struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   VolumeSpec   `json:"spec"`
	Status VolumeStatus `json:"status,omitempty"`
}

// VolumeSpec is what the user asks for.
type VolumeSpec struct {
	// Class is the storage class: the controller provisions the volume
	// on it once, so it never changes.
	// +immutable
	// +kubebuilder:validation:MaxLength=63
	Class string `json:"class"`

	// Zone is where the volume lives. It may be left out, and the
	// controller then picks one; once given it stays.
	// +k8s:immutable
	// +optional
	// +kubebuilder:validation:MaxLength=63
	Zone string `json:"zone,omitempty"`

	// SizeGiB may be set once, at creation or later, and is then never
	// changed or removed.
	// +immutable=AddOnly
	// +optional
	SizeGiB *int32 `json:"sizeGiB,omitempty"`

	// Backup is optional: a volume may go without backups for a while.
	// +optional
	Backup *Backup `json:"backup,omitempty"`

	// Encryption is decided once, when the volume is created.
	// +optional
	Encryption *Encryption `json:"encryption,omitempty"`

	// Labels are copied to the provisioned volume: keys may be added but
	// never removed, and a key keeps its value.
	// +immutable-keys=AddOnly
	// +k8s:eachVal=+k8s:update=NoModify
	// +kubebuilder:validation:MaxProperties=16
	Labels map[string]Label `json:"labels,omitempty"`

	// Mounts are where the volume is attached. Mounts may come and go,
	// but one that stays keeps its path.
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=8
	Mounts []Mount `json:"mounts,omitempty"`

	// Replicas lists the zones of the replicas, in order: entries may be
	// appended and removed from the end, but an entry never changes.
	// +k8s:eachVal=+k8s:immutable
	// +kubebuilder:validation:MaxItems=4
	Replicas []ZoneName `json:"replicas,omitempty"`

	// Tags may be added, never removed: not one by one, not by removing
	// the list.
	// +k8s:update=NoRemoveItem
	// +listType=set
	// +kubebuilder:validation:MaxItems=8
	Tags []Label `json:"tags,omitempty"`

	// Parameters are passed to the driver: which parameters there are is
	// fixed at creation, their values may change.
	// +immutable-keys
	// +kubebuilder:validation:MaxProperties=16
	Parameters map[string]Label `json:"parameters,omitempty"`

	// SnapshotRequest asks for a snapshot: a pending request may be
	// withdrawn, but not made or changed after creation.
	// +immutable=RemoveOnly
	// +optional
	// +kubebuilder:validation:MaxLength=63
	SnapshotRequest string `json:"snapshotRequest,omitempty"`

	// AccessModes may lose entries but never gain one, and never go
	// away altogether.
	// +k8s:update=NoUnset
	// +k8s:update=NoAddItem
	// +listType=set
	// +kubebuilder:validation:MaxItems=4
	AccessModes []Label `json:"accessModes,omitempty"`

	// DataSource says what fills the volume: a snapshot or an image,
	// named by its type.
	// +optional
	DataSource *DataSource `json:"dataSource,omitempty"`

	// Snapshots say when the controller snapshots the volume and how
	// many snapshots it keeps.
	// +optional
	Snapshots *Snapshots `json:"snapshots,omitempty"`

	// Source names what the volume was cloned from (inline, as Go embeds
	// it): set at creation, or never.
	Source `json:",inline"`
}

// Backup is where a volume is backed up to.
type Backup struct {
	// Bucket holds the backups, and a backup stays in the bucket it was
	// written to: controller-gen's rule for +k8s:immutable lets the
	// bucket change when backup is removed and given again in a later
	// update; mut2cel's do not.
	// +k8s:immutable
	// +required
	// +kubebuilder:validation:MaxLength=63
	Bucket string `json:"bucket"`

	// Schedule may change at any time.
	// +optional
	// +kubebuilder:validation:MaxLength=63
	Schedule string `json:"schedule,omitempty"`

	// Credentials reach the bucket.
	// +optional
	Credentials *Credentials `json:"credentials,omitempty"`
}

// Credentials are a union without a discriminator, in controller-gen's
// spelling: exactly one of the two. controller-gen writes its own rule
// for it; mut2cel reads the marker as a union and replaces the rule.
// +kubebuilder:validation:ExactlyOneOf=secretName;serviceAccount
type Credentials struct {
	// +optional
	// +kubebuilder:validation:MaxLength=63
	SecretName string `json:"secretName,omitempty"`

	// +optional
	// +kubebuilder:validation:MaxLength=63
	ServiceAccount string `json:"serviceAccount,omitempty"`
}

// DataSource is a union with a discriminator, in validation-gen's tags:
// type selects the one member that must be set, Snapshot by its Go
// field name and the image by its memberName.
type DataSource struct {
	// +k8s:unionDiscriminator
	// +required
	// +kubebuilder:validation:MaxLength=63
	Type string `json:"type"`

	// +k8s:unionMember
	// +optional
	// +kubebuilder:validation:MaxLength=63
	Snapshot string `json:"snapshot,omitempty"`

	// +k8s:unionMember(memberName: "Image")
	// +optional
	// +kubebuilder:validation:MaxLength=253
	ImageURL string `json:"imageURL,omitempty"`
}

// Snapshots holds three unions in validation-gen's tags, as k8s.io/api
// writes them (some in stability wrappers), whose members are Go value
// types: a member is unset at its zero value ("", 0, false, an empty list
// or map), as validation-gen's functions and the controller, which
// decodes the object into this struct, read it (docs/markers.md).
type Snapshots struct {
	// Trigger selects what starts a snapshot: a schedule or events. It
	// may be left out, or "", which selects nothing: then neither cron
	// nor events may be set.
	// +k8s:beta(since: "1.36")=+k8s:unionDiscriminator(union: "trigger")
	// +optional
	// +kubebuilder:validation:MaxLength=16
	Trigger string `json:"trigger,omitempty"`

	// Cron is the schedule, selected by the trigger Schedule.
	// +k8s:beta(since: "1.36")=+k8s:unionMember(union: "trigger", memberName: "Schedule")
	// +optional
	// +kubebuilder:validation:MaxLength=63
	Cron string `json:"cron,omitempty"`

	// Events start a snapshot, selected by the trigger Events.
	// +k8s:unionMember(union: "trigger")
	// +optional
	// +kubebuilder:validation:MaxItems=4
	Events []Label `json:"events,omitempty"`

	// KeepLast or KeepDays, exactly one, says which snapshots stay.
	// +k8s:unionMember(union: "keep")
	// +optional
	KeepLast int32 `json:"keepLast,omitempty"`

	// +k8s:unionMember(union: "keep")
	// +optional
	KeepDays int32 `json:"keepDays,omitempty"`

	// Labels for the snapshots, or Inherit to copy the volume's: at
	// most one of the two.
	// +k8s:zeroOrOneOfMember
	// +optional
	// +kubebuilder:validation:MaxProperties=4
	Labels map[string]Label `json:"labels,omitempty"`

	// +k8s:zeroOrOneOfMember
	// +optional
	Inherit bool `json:"inherit,omitempty"`
}

// Encryption is immutable wherever it is used: the marker is on the type.
// +immutable
type Encryption struct {
	// +kubebuilder:validation:MaxLength=63
	KeyID string `json:"keyID"`
}

// Mount is one attachment of the volume.
type Mount struct {
	// +kubebuilder:validation:MaxLength=63
	Name string `json:"name"`

	// Path may not change while the mount exists, but a mount may be
	// removed and added again elsewhere.
	// +k8s:update=NoModify
	// +kubebuilder:validation:MaxLength=253
	Path string `json:"path"`
}

// Source is embedded into VolumeSpec.
type Source struct {
	// +k8s:update=NoSet
	// +k8s:update=NoModify
	// +optional
	// +kubebuilder:validation:MaxLength=63
	SourceVolume string `json:"sourceVolume,omitempty"`
}

// ZoneName is a zone; an alias keeps the schema of its target.
type ZoneName = Label

// Label is a short name.
// +kubebuilder:validation:MaxLength=63
type Label string

// VolumeStatus is what the controller reports.
type VolumeStatus struct {
	// +optional
	Phase string `json:"phase,omitempty"`
}

// VolumeList is a list of volumes.
// +kubebuilder:object:root=true
type VolumeList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Volume `json:"items"`
}
