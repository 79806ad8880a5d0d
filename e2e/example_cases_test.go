package e2e

// exampleTables hold, per example file, updates that show what users may
// and may not change (examples/README.md says the same in words). Objects
// are YAML; where an example has a status subresource, a row changes either
// the spec or the status, and the harness writes each through its endpoint.
var exampleTables = map[string][]exampleTransition{
	"certificaterequest.yaml": {{
		what: "the issuer reports a certificate",
		old:  `{spec: {issuerRef: {name: ca}, request: Y3Ny}, status: {conditions: [{type: Ready, status: "False"}]}}`,
		new:  `{spec: {issuerRef: {name: ca}, request: Y3Ny}, status: {certificate: Y2VydA==, conditions: [{type: Ready, status: "True"}]}}`,
	}, {
		what: "change the requested duration",
		old:  `{spec: {issuerRef: {name: ca}, request: Y3Ny, duration: 1h}}`,
		new:  `{spec: {issuerRef: {name: ca}, request: Y3Ny, duration: 2h}}`,
		deny: []string{"spec: Forbidden: spec is immutable"},
	}, {
		what: "add a usage",
		old:  `{spec: {issuerRef: {name: ca}, request: Y3Ny, usages: [digital signature]}}`,
		new:  `{spec: {issuerRef: {name: ca}, request: Y3Ny, usages: [digital signature, server auth]}}`,
		deny: []string{"spec: Forbidden: spec is immutable"},
	}, {
		what: "reorder the groups",
		old:  `{spec: {issuerRef: {name: ca}, request: Y3Ny, groups: [a, b]}}`,
		new:  `{spec: {issuerRef: {name: ca}, request: Y3Ny, groups: [b, a]}}`,
		deny: []string{"spec: Forbidden: spec is immutable"},
	}, {
		what: "point the request at another issuer",
		old:  `{spec: {issuerRef: {name: ca}, request: Y3Ny}}`,
		new:  `{spec: {issuerRef: {name: ca, kind: ClusterIssuer}, request: Y3Ny}}`,
		deny: []string{"spec: Forbidden: spec is immutable"},
	}},
	"gatewayclass.yaml": {{
		what: "change the description",
		old:  `{spec: {controllerName: example.com/gateway, description: old}}`,
		new:  `{spec: {controllerName: example.com/gateway, description: new}}`,
	}, {
		what: "add parameters",
		old:  `{spec: {controllerName: example.com/gateway}}`,
		new:  `{spec: {controllerName: example.com/gateway, parametersRef: {group: example.com, kind: Config, name: c}}}`,
	}, {
		what: "the controller accepts the class",
		old:  `{spec: {controllerName: example.com/gateway}}`,
		new:  `{spec: {controllerName: example.com/gateway}, status: {conditions: [{type: Accepted, status: "True", reason: Accepted, message: ok, lastTransitionTime: "2026-01-01T00:00:00Z"}]}}`,
	}, {
		what: "hand the class to another controller",
		old:  `{spec: {controllerName: example.com/gateway}}`,
		new:  `{spec: {controllerName: example.com/other}}`,
		deny: []string{"spec.controllerName: Forbidden: spec.controllerName is immutable"},
	}},
	"jobset.yaml": {{
		what: "append a replicated job",
		old:  `{spec: {replicatedJobs: [{name: leader, template: {}}]}}`,
		new:  `{spec: {replicatedJobs: [{name: leader, template: {}}, {name: workers, replicas: 4, template: {}}]}}`,
	}, {
		what: "reorder the replicated jobs",
		old:  `{spec: {replicatedJobs: [{name: leader, template: {}}, {name: workers, template: {}}]}}`,
		new:  `{spec: {replicatedJobs: [{name: workers, template: {}}, {name: leader, template: {}}]}}`,
	}, {
		what: "spell out the defaults of an existing job",
		old:  `{spec: {replicatedJobs: [{name: leader, template: {}}]}}`,
		new:  `{spec: {replicatedJobs: [{name: leader, groupName: default, replicas: 1, template: {}}]}}`,
	}, {
		what: "scale an existing job",
		old:  `{spec: {replicatedJobs: [{name: leader, template: {}}, {name: workers, replicas: 2, template: {}}]}}`,
		new:  `{spec: {replicatedJobs: [{name: leader, template: {}}, {name: workers, replicas: 3, template: {}}]}}`,
		deny: []string{"spec.replicatedJobs[1]: Forbidden: existing items of spec.replicatedJobs are immutable"},
	}, {
		what: "remove a replicated job",
		old:  `{spec: {replicatedJobs: [{name: leader, template: {}}, {name: workers, template: {}}]}}`,
		new:  `{spec: {replicatedJobs: [{name: leader, template: {}}]}}`,
		deny: []string{"spec.replicatedJobs: Forbidden: keys cannot be removed from spec.replicatedJobs"},
	}, {
		what: "append a volume claim policy",
		old:  `{spec: {volumeClaimPolicies: [{templates: [{name: data}]}]}}`,
		new:  `{spec: {volumeClaimPolicies: [{templates: [{name: data}]}, {templates: [{name: logs}]}]}}`,
	}, {
		what: "change a volume claim policy",
		old:  `{spec: {volumeClaimPolicies: [{templates: [{name: data}]}]}}`,
		new:  `{spec: {volumeClaimPolicies: [{templates: [{name: data}], retentionPolicy: {whenDeleted: Retain}}]}}`,
		deny: []string{"spec.volumeClaimPolicies: Forbidden: existing items of spec.volumeClaimPolicies are immutable"},
	}, {
		what: "drop the last volume claim policy",
		old:  `{spec: {volumeClaimPolicies: [{templates: [{name: data}]}, {templates: [{name: logs}]}]}}`,
		new:  `{spec: {volumeClaimPolicies: [{templates: [{name: data}]}]}}`,
		deny: []string{"spec.volumeClaimPolicies: Forbidden: items cannot be removed from spec.volumeClaimPolicies"},
	}, {
		what: "suspend the set",
		old:  `{spec: {suspend: false, managedBy: example.com/batch}}`,
		new:  `{spec: {suspend: true, managedBy: example.com/batch}}`,
	}, {
		what: "hand the set to another controller",
		old:  `{spec: {managedBy: example.com/batch}}`,
		new:  `{spec: {managedBy: example.com/other}}`,
		deny: []string{"spec.managedBy: Forbidden: spec.managedBy is immutable"},
	}, {
		what: "name a controller after creation",
		old:  `{spec: {suspend: false}}`,
		new:  `{spec: {suspend: false, managedBy: example.com/batch}}`,
		deny: []string{"spec.managedBy: Forbidden: spec.managedBy cannot be added or removed"},
	}},
	"nodepool.yaml": {{
		what: "add a label and change a value",
		old:  `{spec: {template: {metadata: {labels: {team: a}}, spec: {nodeClassRef: {group: example.com, kind: NodeClass, name: default}}}}}`,
		new:  `{spec: {template: {metadata: {labels: {team: b, tier: web}}, spec: {nodeClassRef: {group: example.com, kind: NodeClass, name: default}}}}}`,
	}, {
		what: "remove a label",
		old:  `{spec: {template: {metadata: {labels: {team: a, tier: web}}, spec: {nodeClassRef: {group: example.com, kind: NodeClass, name: default}}}}}`,
		new:  `{spec: {template: {metadata: {labels: {team: a}}, spec: {nodeClassRef: {group: example.com, kind: NodeClass, name: default}}}}}`,
		deny: []string{"spec.template.metadata.labels: Forbidden: keys cannot be removed from spec.template.metadata.labels"},
	}, {
		what: "drop the template metadata",
		old:  `{spec: {template: {metadata: {labels: {team: a}}, spec: {nodeClassRef: {group: example.com, kind: NodeClass, name: default}}}}}`,
		new:  `{spec: {template: {spec: {nodeClassRef: {group: example.com, kind: NodeClass, name: default}}}}}`,
		deny: []string{"spec.template.metadata.labels: Forbidden: keys cannot be removed from spec.template.metadata.labels"},
	}, {
		what: "use another node class of the same kind",
		old:  `{spec: {template: {spec: {nodeClassRef: {group: example.com, kind: NodeClass, name: default}}}}}`,
		new:  `{spec: {template: {spec: {nodeClassRef: {group: example.com, kind: NodeClass, name: large}}}}}`,
	}, {
		what: "switch the node class kind",
		old:  `{spec: {template: {spec: {nodeClassRef: {group: example.com, kind: NodeClass, name: default}}}}}`,
		new:  `{spec: {template: {spec: {nodeClassRef: {group: example.com, kind: OtherClass, name: default}}}}}`,
		deny: []string{"spec.template.spec.nodeClassRef.kind: Forbidden: spec.template.spec.nodeClassRef.kind is immutable"},
	}},
	"ports.yaml": {{
		what: "add a listener, move another to a new port, reorder",
		old:  `{spec: {gatewayClassName: gc, listeners: [{name: http, port: 80, protocol: HTTP}]}}`,
		new:  `{spec: {gatewayClassName: gc, listeners: [{name: https, port: 443, protocol: HTTPS}, {name: http, port: 8080, protocol: HTTP}]}}`,
	}, {
		what: "remove a listener",
		old:  `{spec: {gatewayClassName: gc, listeners: [{name: http, port: 80, protocol: HTTP}, {name: https, port: 443, protocol: HTTPS}]}}`,
		new:  `{spec: {gatewayClassName: gc, listeners: [{name: https, port: 443, protocol: HTTPS}]}}`,
	}, {
		what: "change the protocol of a listener",
		old:  `{spec: {gatewayClassName: gc, listeners: [{name: web, port: 80, protocol: HTTP}]}}`,
		new:  `{spec: {gatewayClassName: gc, listeners: [{name: web, port: 443, protocol: HTTPS}]}}`,
		deny: []string{"spec.listeners[0].protocol: Forbidden: spec.listeners[*].protocol is immutable"},
	}, {
		what: "add back a removed listener with another protocol",
		old:  `{spec: {gatewayClassName: gc, listeners: [{name: https, port: 443, protocol: HTTPS}]}}`,
		new:  `{spec: {gatewayClassName: gc, listeners: [{name: https, port: 443, protocol: HTTPS}, {name: web, port: 80, protocol: TCP}]}}`,
	}},
	"snapshot.yaml": {{
		what: "give the source after creation",
		old:  `{spec: {volumeSnapshotClassName: fast}}`,
		new:  `{spec: {volumeSnapshotClassName: fast, source: {persistentVolumeClaimName: data}}}`,
	}, {
		what: "change the snapshot class",
		old:  `{spec: {volumeSnapshotClassName: fast, source: {persistentVolumeClaimName: data}}}`,
		new:  `{spec: {volumeSnapshotClassName: slow, source: {persistentVolumeClaimName: data}}}`,
	}, {
		what: "snapshot another claim",
		old:  `{spec: {source: {persistentVolumeClaimName: data}}}`,
		new:  `{spec: {source: {persistentVolumeClaimName: logs}}}`,
		deny: []string{"spec.source.persistentVolumeClaimName: Forbidden: spec.source.persistentVolumeClaimName is immutable"},
	}, {
		what: "remove the source",
		old:  `{spec: {source: {persistentVolumeClaimName: data}, volumeSnapshotClassName: fast}}`,
		new:  `{spec: {volumeSnapshotClassName: fast}}`,
		deny: []string{"spec.source.persistentVolumeClaimName: Forbidden: spec.source.persistentVolumeClaimName cannot be removed once set"},
	}, {
		what: "remove the spec",
		old:  `{spec: {source: {volumeSnapshotContentName: content-1}}}`,
		new:  `{}`,
		deny: []string{"spec.source.volumeSnapshotContentName: Forbidden: spec.source.volumeSnapshotContentName cannot be removed once set"},
	}, {
		what: "the controller binds the snapshot",
		old:  `{spec: {source: {persistentVolumeClaimName: data}}, status: {readyToUse: false}}`,
		new:  `{spec: {source: {persistentVolumeClaimName: data}}, status: {readyToUse: true, boundVolumeSnapshotContentName: content-1}}`,
	}, {
		what: "the controller rebinds the snapshot",
		old:  `{spec: {source: {persistentVolumeClaimName: data}}, status: {boundVolumeSnapshotContentName: content-1}}`,
		new:  `{spec: {source: {persistentVolumeClaimName: data}}, status: {boundVolumeSnapshotContentName: content-2}}`,
		deny: []string{"status.boundVolumeSnapshotContentName: Forbidden: status.boundVolumeSnapshotContentName is immutable"},
	}, {
		what: "the controller unbinds the snapshot",
		old:  `{spec: {source: {persistentVolumeClaimName: data}}, status: {boundVolumeSnapshotContentName: content-1}}`,
		new:  `{spec: {source: {persistentVolumeClaimName: data}}, status: {readyToUse: false}}`,
		deny: []string{"status.boundVolumeSnapshotContentName: Forbidden: status.boundVolumeSnapshotContentName cannot be removed once set"},
	}},
	"unions.yaml": {{
		what: "turn a redirect into a rewrite",
		old:  `{spec: {rules: [{filters: [{type: RequestRedirect, requestRedirect: {hostname: a.example}}]}]}}`,
		new:  `{spec: {rules: [{filters: [{type: URLRewrite, urlRewrite: {hostname: b.example}}]}]}}`,
	}, {
		what: "an extension filter sets no member",
		old:  `{spec: {rules: [{filters: [{type: RequestRedirect, requestRedirect: {hostname: a.example}}]}]}}`,
		new:  `{spec: {rules: [{filters: [{type: ExtensionRef, extensionRef: {name: ext}}]}]}}`,
	}, {
		what: "set a member the type does not select",
		old:  `{spec: {rules: [{filters: [{type: URLRewrite, urlRewrite: {hostname: b.example}}]}]}}`,
		new:  `{spec: {rules: [{filters: [{type: URLRewrite, urlRewrite: {hostname: b.example}, requestRedirect: {hostname: a.example}}]}]}}`,
		deny: []string{"spec.rules[0].filters[0].requestRedirect: Forbidden: requestRedirect may be set only when type is RequestRedirect"},
	}, {
		what: "change the type and keep the old member",
		old:  `{spec: {rules: [{filters: [{type: RequestRedirect, requestRedirect: {hostname: a.example}}]}]}}`,
		new:  `{spec: {rules: [{filters: [{type: URLRewrite, requestRedirect: {hostname: a.example}}]}]}}`,
		deny: []string{"spec.rules[0].filters[0].requestRedirect: Forbidden: requestRedirect may be set only when type is RequestRedirect", "spec.rules[0].filters[0].urlRewrite: Required value: urlRewrite must be set when type is URLRewrite"},
	}, {
		what: "mirror by percentage and by fraction at once",
		old:  `{spec: {rules: [{filters: [{type: RequestMirror, requestMirror: {backendRef: {name: b}, percent: 10}}]}]}}`,
		new:  `{spec: {rules: [{filters: [{type: RequestMirror, requestMirror: {backendRef: {name: b}, percent: 10, fraction: {numerator: 1}}}]}]}}`,
		deny: []string{"spec.rules[0].filters[0].requestMirror: Forbidden: at most one of fraction, percent may be set"},
	}},
}
