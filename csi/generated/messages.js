/*eslint-disable block-scoped-var, id-length, no-control-regex, no-magic-numbers, no-mixed-operators, no-prototype-builtins, no-redeclare, no-shadow, no-var, sort-vars, default-case, jsdoc/require-param*/
import $protobuf from "protobufjs/minimal.js";

const $Reader = $protobuf.Reader, $Writer = $protobuf.Writer, $util = $protobuf.util;
const $Object = $util.global.Object, $undefined = $util.global.undefined, $Error = $util.global.Error, $RangeError = $util.global.RangeError, $TypeError = $util.global.TypeError, $String = $util.global.String, $Array = $util.global.Array, $Number = $util.global.Number, $parseInt = $util.global.parseInt, $BigInt = $util.global.BigInt, $Boolean = $util.global.Boolean, $isFinite = $util.global.isFinite;

const $root = $protobuf.roots["default"] || ($protobuf.roots["default"] = {});

export const csi = $root.csi = (() => {

    const csi = {};

    csi.v1 = (function() {

        const v1 = {};

        v1.GetPluginInfoRequest = (function() {

            const GetPluginInfoRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            GetPluginInfoRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            GetPluginInfoRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.GetPluginInfoRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    reader.skipType(tag & 7, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            GetPluginInfoRequest.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.GetPluginInfoRequest)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.GetPluginInfoRequest: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                return new $root.csi.v1.GetPluginInfoRequest();
            };

            GetPluginInfoRequest.toObject = function () {
                return {};
            };

            GetPluginInfoRequest.prototype.toJSON = function() {
                return GetPluginInfoRequest.toObject(this, $protobuf.util.toJSONOptions);
            };

            return GetPluginInfoRequest;
        })();

        v1.GetPluginInfoResponse = (function() {

            const GetPluginInfoResponse = function (properties) {
                this.manifest = {};
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            GetPluginInfoResponse.prototype.name = "";
            GetPluginInfoResponse.prototype.vendor_version = "";
            GetPluginInfoResponse.prototype.manifest = $util.emptyObject;

            GetPluginInfoResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(10).string(message.name);
                if (message.vendor_version != null && $Object.hasOwnProperty.call(message, "vendor_version") && message.vendor_version !== "")
                    writer.uint32(18).string(message.vendor_version);
                if (message.manifest != null && $Object.hasOwnProperty.call(message, "manifest"))
                    for (let keys = $Object.keys(message.manifest), i = 0; i < keys.length; ++i)
                        writer.uint32(26).fork().uint32(10).string(keys[i]).uint32(18).string(message.manifest[keys[i]]).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            GetPluginInfoResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, key, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.GetPluginInfoResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.vendor_version = value;
                            else
                                delete message.vendor_version;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if (message.manifest === $util.emptyObject)
                                message.manifest = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = "";
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = reader.stringVerify();
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.manifest, key);
                            message.manifest[key] = value;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            GetPluginInfoResponse.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.GetPluginInfoResponse)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.GetPluginInfoResponse: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.csi.v1.GetPluginInfoResponse();
                if (object.name != null)
                    if (typeof object.name !== "string" || object.name.length)
                        message.name = $String(object.name);
                if (object.vendor_version != null)
                    if (typeof object.vendor_version !== "string" || object.vendor_version.length)
                        message.vendor_version = $String(object.vendor_version);
                if (object.manifest) {
                    if (!$util.isObject(object.manifest))
                        throw $TypeError(".csi.v1.GetPluginInfoResponse.manifest: object expected");
                    message.manifest = {};
                    for (let keys = $Object.keys(object.manifest), i = 0; i < keys.length; ++i) {
                        if (keys[i] === "__proto__")
                            $util.makeProp(message.manifest, keys[i]);
                        message.manifest[keys[i]] = $String(object.manifest[keys[i]]);
                    }
                }
                return message;
            };

            GetPluginInfoResponse.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.objects || options.defaults)
                    object.manifest = {};
                if (options.defaults) {
                    object.name = "";
                    object.vendor_version = "";
                }
                if (message.name != null && $Object.hasOwnProperty.call(message, "name"))
                    object.name = message.name;
                if (message.vendor_version != null && $Object.hasOwnProperty.call(message, "vendor_version"))
                    object.vendor_version = message.vendor_version;
                let keys2;
                if (message.manifest && (keys2 = $Object.keys(message.manifest)).length) {
                    object.manifest = {};
                    for (let j = 0; j < keys2.length; ++j) {
                        if (keys2[j] === "__proto__")
                            $util.makeProp(object.manifest, keys2[j]);
                        object.manifest[keys2[j]] = message.manifest[keys2[j]];
                    }
                }
                return object;
            };

            GetPluginInfoResponse.prototype.toJSON = function() {
                return GetPluginInfoResponse.toObject(this, $protobuf.util.toJSONOptions);
            };

            return GetPluginInfoResponse;
        })();

        v1.GetPluginCapabilitiesRequest = (function() {

            const GetPluginCapabilitiesRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            GetPluginCapabilitiesRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            GetPluginCapabilitiesRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.GetPluginCapabilitiesRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    reader.skipType(tag & 7, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            GetPluginCapabilitiesRequest.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.GetPluginCapabilitiesRequest)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.GetPluginCapabilitiesRequest: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                return new $root.csi.v1.GetPluginCapabilitiesRequest();
            };

            GetPluginCapabilitiesRequest.toObject = function () {
                return {};
            };

            GetPluginCapabilitiesRequest.prototype.toJSON = function() {
                return GetPluginCapabilitiesRequest.toObject(this, $protobuf.util.toJSONOptions);
            };

            return GetPluginCapabilitiesRequest;
        })();

        v1.GetPluginCapabilitiesResponse = (function() {

            const GetPluginCapabilitiesResponse = function (properties) {
                this.capabilities = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            GetPluginCapabilitiesResponse.prototype.capabilities = $util.emptyArray;

            GetPluginCapabilitiesResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.capabilities != null && message.capabilities.length)
                    for (let i = 0; i < message.capabilities.length; ++i)
                        $root.csi.v1.PluginCapability.encode(message.capabilities[i], writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            GetPluginCapabilitiesResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.GetPluginCapabilitiesResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.capabilities && message.capabilities.length))
                                message.capabilities = [];
                            message.capabilities.push($root.csi.v1.PluginCapability.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            GetPluginCapabilitiesResponse.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.GetPluginCapabilitiesResponse)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.GetPluginCapabilitiesResponse: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.csi.v1.GetPluginCapabilitiesResponse();
                if (object.capabilities) {
                    if (!$Array.isArray(object.capabilities))
                        throw $TypeError(".csi.v1.GetPluginCapabilitiesResponse.capabilities: array expected");
                    message.capabilities = $Array(object.capabilities.length);
                    for (let i = 0; i < object.capabilities.length; ++i) {
                        if (!$util.isObject(object.capabilities[i]))
                            throw $TypeError(".csi.v1.GetPluginCapabilitiesResponse.capabilities: object expected");
                        message.capabilities[i] = $root.csi.v1.PluginCapability.fromObject(object.capabilities[i], _depth + 1);
                    }
                }
                return message;
            };

            GetPluginCapabilitiesResponse.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.arrays || options.defaults)
                    object.capabilities = [];
                if (message.capabilities && message.capabilities.length) {
                    object.capabilities = $Array(message.capabilities.length);
                    for (let j = 0; j < message.capabilities.length; ++j)
                        object.capabilities[j] = $root.csi.v1.PluginCapability.toObject(message.capabilities[j], options, _depth + 1);
                }
                return object;
            };

            GetPluginCapabilitiesResponse.prototype.toJSON = function() {
                return GetPluginCapabilitiesResponse.toObject(this, $protobuf.util.toJSONOptions);
            };

            return GetPluginCapabilitiesResponse;
        })();

        v1.PluginCapability = (function() {

            const PluginCapability = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            PluginCapability.prototype.service = null;
            PluginCapability.prototype.volume_expansion = null;

            let $oneOfFields;

            $Object.defineProperty(PluginCapability.prototype, "type", {
                get: $util.oneOfGetter($oneOfFields = ["service", "volume_expansion"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            PluginCapability.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.service != null && $Object.hasOwnProperty.call(message, "service"))
                    $root.csi.v1.PluginCapability.Service.encode(message.service, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.volume_expansion != null && $Object.hasOwnProperty.call(message, "volume_expansion"))
                    $root.csi.v1.PluginCapability.VolumeExpansion.encode(message.volume_expansion, writer.uint32(18).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            PluginCapability.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.PluginCapability();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.service = $root.csi.v1.PluginCapability.Service.decode(reader, reader.size(), $undefined, _depth + 1, message.service);
                            message.type = "service";
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            message.volume_expansion = $root.csi.v1.PluginCapability.VolumeExpansion.decode(reader, reader.size(), $undefined, _depth + 1, message.volume_expansion);
                            message.type = "volume_expansion";
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            PluginCapability.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.PluginCapability)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.PluginCapability: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.csi.v1.PluginCapability();
                if (object.service != null) {
                    if (!$util.isObject(object.service))
                        throw $TypeError(".csi.v1.PluginCapability.service: object expected");
                    message.service = $root.csi.v1.PluginCapability.Service.fromObject(object.service, _depth + 1);
                }
                if (object.volume_expansion != null) {
                    if (!$util.isObject(object.volume_expansion))
                        throw $TypeError(".csi.v1.PluginCapability.volume_expansion: object expected");
                    message.volume_expansion = $root.csi.v1.PluginCapability.VolumeExpansion.fromObject(object.volume_expansion, _depth + 1);
                }
                return message;
            };

            PluginCapability.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (message.service != null && $Object.hasOwnProperty.call(message, "service")) {
                    object.service = $root.csi.v1.PluginCapability.Service.toObject(message.service, options, _depth + 1);
                    if (options.oneofs)
                        object.type = "service";
                }
                if (message.volume_expansion != null && $Object.hasOwnProperty.call(message, "volume_expansion")) {
                    object.volume_expansion = $root.csi.v1.PluginCapability.VolumeExpansion.toObject(message.volume_expansion, options, _depth + 1);
                    if (options.oneofs)
                        object.type = "volume_expansion";
                }
                return object;
            };

            PluginCapability.prototype.toJSON = function() {
                return PluginCapability.toObject(this, $protobuf.util.toJSONOptions);
            };

            PluginCapability.Service = (function() {

                const Service = function (properties) {
                    if (properties)
                        for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                            if (properties[keys[i]] != null && keys[i] !== "__proto__")
                                this[keys[i]] = properties[keys[i]];
                };

                Service.prototype.type = 0;

                Service.encode = function (message, writer, _depth) {
                    if (!writer)
                        writer = $Writer.create();
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (message.type != null && $Object.hasOwnProperty.call(message, "type") && message.type !== 0)
                        writer.uint32(8).int32(message.type);
                    if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                        for (let i = 0; i < message.$unknowns.length; ++i)
                            writer.raw(message.$unknowns[i]);
                    return writer;
                };

                Service.decode = function (reader, length, _end, _depth, _target) {
                    if (!(reader instanceof $Reader))
                        reader = $Reader.create(reader);
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    let end, message, value;
                    if (length === $undefined)
                        end = reader.len;
                    else {
                        end = reader.pos + length;
                        if (end > reader.len)
                            throw $RangeError("index out of range");
                        length = reader.len;
                        reader.len = end;
                    }
                    message = _target || new $root.csi.v1.PluginCapability.Service();
                    while (reader.pos < end) {
                        let start = reader.pos;
                        let tag = reader.tag();
                        if (tag === _end) {
                            _end = $undefined;
                            break;
                        }
                        let wireType = tag & 7;
                        switch (tag >>>= 3) {
                        case 1: {
                                if (wireType !== 0)
                                    break;
                                if (value = reader.int32())
                                    message.type = value;
                                else
                                    delete message.type;
                                continue;
                            }
                        }
                        reader.skipType(wireType, _depth, tag);
                        if (!reader.discardUnknown) {
                            $util.makeProp(message, "$unknowns", false);
                            (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                        }
                    }
                    if (length !== $undefined) {
                        if (reader.pos !== end)
                            throw $RangeError("index out of range");
                        reader.len = length;
                    }
                    if (_end !== $undefined)
                        throw $Error("missing end group");
                    return message;
                };

                Service.fromObject = function (object, _depth) {
                    if (object instanceof $root.csi.v1.PluginCapability.Service)
                        return object;
                    if (!$util.isObject(object))
                        throw $TypeError(".csi.v1.PluginCapability.Service: object expected");
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    let message = new $root.csi.v1.PluginCapability.Service();
                    if (object.type !== 0 && (typeof object.type !== "string" || $root.csi.v1.PluginCapability.Service.Type[object.type] !== 0))
                        switch (object.type) {
                        case "UNKNOWN":
                        case 0:
                            message.type = 0;
                            break;
                        case "CONTROLLER_SERVICE":
                        case 1:
                            message.type = 1;
                            break;
                        case "VOLUME_ACCESSIBILITY_CONSTRAINTS":
                        case 2:
                            message.type = 2;
                            break;
                        case "GROUP_CONTROLLER_SERVICE":
                        case 3:
                            message.type = 3;
                            break;
                        case "SNAPSHOT_METADATA_SERVICE":
                        case 4:
                            message.type = 4;
                            break;
                        default:
                            if (typeof object.type === "number" && (object.type | 0) === object.type)
                                message.type = object.type;
                        }
                    return message;
                };

                Service.toObject = function (message, options, _depth) {
                    if (!options)
                        options = {};
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    let object = {};
                    if (options.defaults)
                        object.type = options.enums === $String ? "UNKNOWN" : 0;
                    if (message.type != null && $Object.hasOwnProperty.call(message, "type"))
                        object.type = options.enums === $String ? $root.csi.v1.PluginCapability.Service.Type[message.type] === $undefined ? message.type : $root.csi.v1.PluginCapability.Service.Type[message.type] : message.type;
                    return object;
                };

                Service.prototype.toJSON = function() {
                    return Service.toObject(this, $protobuf.util.toJSONOptions);
                };

                Service.Type = (function() {
                    const valuesById = $Object.create(null), values = $Object.create(valuesById);
                    values[valuesById[0] = "UNKNOWN"] = 0;
                    values[valuesById[1] = "CONTROLLER_SERVICE"] = 1;
                    values[valuesById[2] = "VOLUME_ACCESSIBILITY_CONSTRAINTS"] = 2;
                    values[valuesById[3] = "GROUP_CONTROLLER_SERVICE"] = 3;
                    values[valuesById[4] = "SNAPSHOT_METADATA_SERVICE"] = 4;
                    return values;
                })();

                return Service;
            })();

            PluginCapability.VolumeExpansion = (function() {

                const VolumeExpansion = function (properties) {
                    if (properties)
                        for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                            if (properties[keys[i]] != null && keys[i] !== "__proto__")
                                this[keys[i]] = properties[keys[i]];
                };

                VolumeExpansion.prototype.type = 0;

                VolumeExpansion.encode = function (message, writer, _depth) {
                    if (!writer)
                        writer = $Writer.create();
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (message.type != null && $Object.hasOwnProperty.call(message, "type") && message.type !== 0)
                        writer.uint32(8).int32(message.type);
                    if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                        for (let i = 0; i < message.$unknowns.length; ++i)
                            writer.raw(message.$unknowns[i]);
                    return writer;
                };

                VolumeExpansion.decode = function (reader, length, _end, _depth, _target) {
                    if (!(reader instanceof $Reader))
                        reader = $Reader.create(reader);
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    let end, message, value;
                    if (length === $undefined)
                        end = reader.len;
                    else {
                        end = reader.pos + length;
                        if (end > reader.len)
                            throw $RangeError("index out of range");
                        length = reader.len;
                        reader.len = end;
                    }
                    message = _target || new $root.csi.v1.PluginCapability.VolumeExpansion();
                    while (reader.pos < end) {
                        let start = reader.pos;
                        let tag = reader.tag();
                        if (tag === _end) {
                            _end = $undefined;
                            break;
                        }
                        let wireType = tag & 7;
                        switch (tag >>>= 3) {
                        case 1: {
                                if (wireType !== 0)
                                    break;
                                if (value = reader.int32())
                                    message.type = value;
                                else
                                    delete message.type;
                                continue;
                            }
                        }
                        reader.skipType(wireType, _depth, tag);
                        if (!reader.discardUnknown) {
                            $util.makeProp(message, "$unknowns", false);
                            (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                        }
                    }
                    if (length !== $undefined) {
                        if (reader.pos !== end)
                            throw $RangeError("index out of range");
                        reader.len = length;
                    }
                    if (_end !== $undefined)
                        throw $Error("missing end group");
                    return message;
                };

                VolumeExpansion.fromObject = function (object, _depth) {
                    if (object instanceof $root.csi.v1.PluginCapability.VolumeExpansion)
                        return object;
                    if (!$util.isObject(object))
                        throw $TypeError(".csi.v1.PluginCapability.VolumeExpansion: object expected");
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    let message = new $root.csi.v1.PluginCapability.VolumeExpansion();
                    if (object.type !== 0 && (typeof object.type !== "string" || $root.csi.v1.PluginCapability.VolumeExpansion.Type[object.type] !== 0))
                        switch (object.type) {
                        case "UNKNOWN":
                        case 0:
                            message.type = 0;
                            break;
                        case "ONLINE":
                        case 1:
                            message.type = 1;
                            break;
                        case "OFFLINE":
                        case 2:
                            message.type = 2;
                            break;
                        default:
                            if (typeof object.type === "number" && (object.type | 0) === object.type)
                                message.type = object.type;
                        }
                    return message;
                };

                VolumeExpansion.toObject = function (message, options, _depth) {
                    if (!options)
                        options = {};
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    let object = {};
                    if (options.defaults)
                        object.type = options.enums === $String ? "UNKNOWN" : 0;
                    if (message.type != null && $Object.hasOwnProperty.call(message, "type"))
                        object.type = options.enums === $String ? $root.csi.v1.PluginCapability.VolumeExpansion.Type[message.type] === $undefined ? message.type : $root.csi.v1.PluginCapability.VolumeExpansion.Type[message.type] : message.type;
                    return object;
                };

                VolumeExpansion.prototype.toJSON = function() {
                    return VolumeExpansion.toObject(this, $protobuf.util.toJSONOptions);
                };

                VolumeExpansion.Type = (function() {
                    const valuesById = $Object.create(null), values = $Object.create(valuesById);
                    values[valuesById[0] = "UNKNOWN"] = 0;
                    values[valuesById[1] = "ONLINE"] = 1;
                    values[valuesById[2] = "OFFLINE"] = 2;
                    return values;
                })();

                return VolumeExpansion;
            })();

            return PluginCapability;
        })();

        v1.ProbeRequest = (function() {

            const ProbeRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ProbeRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ProbeRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.ProbeRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    reader.skipType(tag & 7, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ProbeRequest.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.ProbeRequest)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.ProbeRequest: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                return new $root.csi.v1.ProbeRequest();
            };

            ProbeRequest.toObject = function () {
                return {};
            };

            ProbeRequest.prototype.toJSON = function() {
                return ProbeRequest.toObject(this, $protobuf.util.toJSONOptions);
            };

            return ProbeRequest;
        })();

        v1.ProbeResponse = (function() {

            const ProbeResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ProbeResponse.prototype.ready = null;

            ProbeResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.ready != null && $Object.hasOwnProperty.call(message, "ready"))
                    $root.google.protobuf.BoolValue.encode(message.ready, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ProbeResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.ProbeResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.ready = $root.google.protobuf.BoolValue.decode(reader, reader.size(), $undefined, _depth + 1, message.ready);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ProbeResponse.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.ProbeResponse)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.ProbeResponse: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.csi.v1.ProbeResponse();
                if (object.ready != null) {
                    if (!$util.isObject(object.ready))
                        throw $TypeError(".csi.v1.ProbeResponse.ready: object expected");
                    message.ready = $root.google.protobuf.BoolValue.fromObject(object.ready, _depth + 1);
                }
                return message;
            };

            ProbeResponse.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults)
                    object.ready = null;
                if (message.ready != null && $Object.hasOwnProperty.call(message, "ready"))
                    object.ready = $root.google.protobuf.BoolValue.toObject(message.ready, options, _depth + 1);
                return object;
            };

            ProbeResponse.prototype.toJSON = function() {
                return ProbeResponse.toObject(this, $protobuf.util.toJSONOptions);
            };

            return ProbeResponse;
        })();

        v1.CreateVolumeRequest = (function() {

            const CreateVolumeRequest = function (properties) {
                this.volume_capabilities = [];
                this.parameters = {};
                this.secrets = {};
                this.mutable_parameters = {};
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            CreateVolumeRequest.prototype.name = "";
            CreateVolumeRequest.prototype.capacity_range = null;
            CreateVolumeRequest.prototype.volume_capabilities = $util.emptyArray;
            CreateVolumeRequest.prototype.parameters = $util.emptyObject;
            CreateVolumeRequest.prototype.secrets = $util.emptyObject;
            CreateVolumeRequest.prototype.volume_content_source = null;
            CreateVolumeRequest.prototype.accessibility_requirements = null;
            CreateVolumeRequest.prototype.mutable_parameters = $util.emptyObject;

            CreateVolumeRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(10).string(message.name);
                if (message.capacity_range != null && $Object.hasOwnProperty.call(message, "capacity_range"))
                    $root.csi.v1.CapacityRange.encode(message.capacity_range, writer.uint32(18).fork(), _depth + 1).ldelim();
                if (message.volume_capabilities != null && message.volume_capabilities.length)
                    for (let i = 0; i < message.volume_capabilities.length; ++i)
                        $root.csi.v1.VolumeCapability.encode(message.volume_capabilities[i], writer.uint32(26).fork(), _depth + 1).ldelim();
                if (message.parameters != null && $Object.hasOwnProperty.call(message, "parameters"))
                    for (let keys = $Object.keys(message.parameters), i = 0; i < keys.length; ++i)
                        writer.uint32(34).fork().uint32(10).string(keys[i]).uint32(18).string(message.parameters[keys[i]]).ldelim();
                if (message.secrets != null && $Object.hasOwnProperty.call(message, "secrets"))
                    for (let keys = $Object.keys(message.secrets), i = 0; i < keys.length; ++i)
                        writer.uint32(42).fork().uint32(10).string(keys[i]).uint32(18).string(message.secrets[keys[i]]).ldelim();
                if (message.volume_content_source != null && $Object.hasOwnProperty.call(message, "volume_content_source"))
                    $root.csi.v1.VolumeContentSource.encode(message.volume_content_source, writer.uint32(50).fork(), _depth + 1).ldelim();
                if (message.accessibility_requirements != null && $Object.hasOwnProperty.call(message, "accessibility_requirements"))
                    $root.csi.v1.TopologyRequirement.encode(message.accessibility_requirements, writer.uint32(58).fork(), _depth + 1).ldelim();
                if (message.mutable_parameters != null && $Object.hasOwnProperty.call(message, "mutable_parameters"))
                    for (let keys = $Object.keys(message.mutable_parameters), i = 0; i < keys.length; ++i)
                        writer.uint32(66).fork().uint32(10).string(keys[i]).uint32(18).string(message.mutable_parameters[keys[i]]).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            CreateVolumeRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, key, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.CreateVolumeRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            message.capacity_range = $root.csi.v1.CapacityRange.decode(reader, reader.size(), $undefined, _depth + 1, message.capacity_range);
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if (!(message.volume_capabilities && message.volume_capabilities.length))
                                message.volume_capabilities = [];
                            message.volume_capabilities.push($root.csi.v1.VolumeCapability.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if (message.parameters === $util.emptyObject)
                                message.parameters = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = "";
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = reader.stringVerify();
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.parameters, key);
                            message.parameters[key] = value;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            if (message.secrets === $util.emptyObject)
                                message.secrets = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = "";
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = reader.stringVerify();
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.secrets, key);
                            message.secrets[key] = value;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 2)
                                break;
                            message.volume_content_source = $root.csi.v1.VolumeContentSource.decode(reader, reader.size(), $undefined, _depth + 1, message.volume_content_source);
                            continue;
                        }
                    case 7: {
                            if (wireType !== 2)
                                break;
                            message.accessibility_requirements = $root.csi.v1.TopologyRequirement.decode(reader, reader.size(), $undefined, _depth + 1, message.accessibility_requirements);
                            continue;
                        }
                    case 8: {
                            if (wireType !== 2)
                                break;
                            if (message.mutable_parameters === $util.emptyObject)
                                message.mutable_parameters = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = "";
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = reader.stringVerify();
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.mutable_parameters, key);
                            message.mutable_parameters[key] = value;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            CreateVolumeRequest.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.CreateVolumeRequest)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.CreateVolumeRequest: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.csi.v1.CreateVolumeRequest();
                if (object.name != null)
                    if (typeof object.name !== "string" || object.name.length)
                        message.name = $String(object.name);
                if (object.capacity_range != null) {
                    if (!$util.isObject(object.capacity_range))
                        throw $TypeError(".csi.v1.CreateVolumeRequest.capacity_range: object expected");
                    message.capacity_range = $root.csi.v1.CapacityRange.fromObject(object.capacity_range, _depth + 1);
                }
                if (object.volume_capabilities) {
                    if (!$Array.isArray(object.volume_capabilities))
                        throw $TypeError(".csi.v1.CreateVolumeRequest.volume_capabilities: array expected");
                    message.volume_capabilities = $Array(object.volume_capabilities.length);
                    for (let i = 0; i < object.volume_capabilities.length; ++i) {
                        if (!$util.isObject(object.volume_capabilities[i]))
                            throw $TypeError(".csi.v1.CreateVolumeRequest.volume_capabilities: object expected");
                        message.volume_capabilities[i] = $root.csi.v1.VolumeCapability.fromObject(object.volume_capabilities[i], _depth + 1);
                    }
                }
                if (object.parameters) {
                    if (!$util.isObject(object.parameters))
                        throw $TypeError(".csi.v1.CreateVolumeRequest.parameters: object expected");
                    message.parameters = {};
                    for (let keys = $Object.keys(object.parameters), i = 0; i < keys.length; ++i) {
                        if (keys[i] === "__proto__")
                            $util.makeProp(message.parameters, keys[i]);
                        message.parameters[keys[i]] = $String(object.parameters[keys[i]]);
                    }
                }
                if (object.secrets) {
                    if (!$util.isObject(object.secrets))
                        throw $TypeError(".csi.v1.CreateVolumeRequest.secrets: object expected");
                    message.secrets = {};
                    for (let keys = $Object.keys(object.secrets), i = 0; i < keys.length; ++i) {
                        if (keys[i] === "__proto__")
                            $util.makeProp(message.secrets, keys[i]);
                        message.secrets[keys[i]] = $String(object.secrets[keys[i]]);
                    }
                }
                if (object.volume_content_source != null) {
                    if (!$util.isObject(object.volume_content_source))
                        throw $TypeError(".csi.v1.CreateVolumeRequest.volume_content_source: object expected");
                    message.volume_content_source = $root.csi.v1.VolumeContentSource.fromObject(object.volume_content_source, _depth + 1);
                }
                if (object.accessibility_requirements != null) {
                    if (!$util.isObject(object.accessibility_requirements))
                        throw $TypeError(".csi.v1.CreateVolumeRequest.accessibility_requirements: object expected");
                    message.accessibility_requirements = $root.csi.v1.TopologyRequirement.fromObject(object.accessibility_requirements, _depth + 1);
                }
                if (object.mutable_parameters) {
                    if (!$util.isObject(object.mutable_parameters))
                        throw $TypeError(".csi.v1.CreateVolumeRequest.mutable_parameters: object expected");
                    message.mutable_parameters = {};
                    for (let keys = $Object.keys(object.mutable_parameters), i = 0; i < keys.length; ++i) {
                        if (keys[i] === "__proto__")
                            $util.makeProp(message.mutable_parameters, keys[i]);
                        message.mutable_parameters[keys[i]] = $String(object.mutable_parameters[keys[i]]);
                    }
                }
                return message;
            };

            CreateVolumeRequest.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.arrays || options.defaults)
                    object.volume_capabilities = [];
                if (options.objects || options.defaults) {
                    object.parameters = {};
                    object.secrets = {};
                    object.mutable_parameters = {};
                }
                if (options.defaults) {
                    object.name = "";
                    object.capacity_range = null;
                    object.volume_content_source = null;
                    object.accessibility_requirements = null;
                }
                if (message.name != null && $Object.hasOwnProperty.call(message, "name"))
                    object.name = message.name;
                if (message.capacity_range != null && $Object.hasOwnProperty.call(message, "capacity_range"))
                    object.capacity_range = $root.csi.v1.CapacityRange.toObject(message.capacity_range, options, _depth + 1);
                if (message.volume_capabilities && message.volume_capabilities.length) {
                    object.volume_capabilities = $Array(message.volume_capabilities.length);
                    for (let j = 0; j < message.volume_capabilities.length; ++j)
                        object.volume_capabilities[j] = $root.csi.v1.VolumeCapability.toObject(message.volume_capabilities[j], options, _depth + 1);
                }
                let keys2;
                if (message.parameters && (keys2 = $Object.keys(message.parameters)).length) {
                    object.parameters = {};
                    for (let j = 0; j < keys2.length; ++j) {
                        if (keys2[j] === "__proto__")
                            $util.makeProp(object.parameters, keys2[j]);
                        object.parameters[keys2[j]] = message.parameters[keys2[j]];
                    }
                }
                if (message.secrets && (keys2 = $Object.keys(message.secrets)).length) {
                    object.secrets = {};
                    for (let j = 0; j < keys2.length; ++j) {
                        if (keys2[j] === "__proto__")
                            $util.makeProp(object.secrets, keys2[j]);
                        object.secrets[keys2[j]] = message.secrets[keys2[j]];
                    }
                }
                if (message.volume_content_source != null && $Object.hasOwnProperty.call(message, "volume_content_source"))
                    object.volume_content_source = $root.csi.v1.VolumeContentSource.toObject(message.volume_content_source, options, _depth + 1);
                if (message.accessibility_requirements != null && $Object.hasOwnProperty.call(message, "accessibility_requirements"))
                    object.accessibility_requirements = $root.csi.v1.TopologyRequirement.toObject(message.accessibility_requirements, options, _depth + 1);
                if (message.mutable_parameters && (keys2 = $Object.keys(message.mutable_parameters)).length) {
                    object.mutable_parameters = {};
                    for (let j = 0; j < keys2.length; ++j) {
                        if (keys2[j] === "__proto__")
                            $util.makeProp(object.mutable_parameters, keys2[j]);
                        object.mutable_parameters[keys2[j]] = message.mutable_parameters[keys2[j]];
                    }
                }
                return object;
            };

            CreateVolumeRequest.prototype.toJSON = function() {
                return CreateVolumeRequest.toObject(this, $protobuf.util.toJSONOptions);
            };

            return CreateVolumeRequest;
        })();

        v1.VolumeContentSource = (function() {

            const VolumeContentSource = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            VolumeContentSource.prototype.snapshot = null;
            VolumeContentSource.prototype.volume = null;

            let $oneOfFields;

            $Object.defineProperty(VolumeContentSource.prototype, "type", {
                get: $util.oneOfGetter($oneOfFields = ["snapshot", "volume"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            VolumeContentSource.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.snapshot != null && $Object.hasOwnProperty.call(message, "snapshot"))
                    $root.csi.v1.VolumeContentSource.SnapshotSource.encode(message.snapshot, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.volume != null && $Object.hasOwnProperty.call(message, "volume"))
                    $root.csi.v1.VolumeContentSource.VolumeSource.encode(message.volume, writer.uint32(18).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            VolumeContentSource.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.VolumeContentSource();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.snapshot = $root.csi.v1.VolumeContentSource.SnapshotSource.decode(reader, reader.size(), $undefined, _depth + 1, message.snapshot);
                            message.type = "snapshot";
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            message.volume = $root.csi.v1.VolumeContentSource.VolumeSource.decode(reader, reader.size(), $undefined, _depth + 1, message.volume);
                            message.type = "volume";
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            VolumeContentSource.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.VolumeContentSource)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.VolumeContentSource: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.csi.v1.VolumeContentSource();
                if (object.snapshot != null) {
                    if (!$util.isObject(object.snapshot))
                        throw $TypeError(".csi.v1.VolumeContentSource.snapshot: object expected");
                    message.snapshot = $root.csi.v1.VolumeContentSource.SnapshotSource.fromObject(object.snapshot, _depth + 1);
                }
                if (object.volume != null) {
                    if (!$util.isObject(object.volume))
                        throw $TypeError(".csi.v1.VolumeContentSource.volume: object expected");
                    message.volume = $root.csi.v1.VolumeContentSource.VolumeSource.fromObject(object.volume, _depth + 1);
                }
                return message;
            };

            VolumeContentSource.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (message.snapshot != null && $Object.hasOwnProperty.call(message, "snapshot")) {
                    object.snapshot = $root.csi.v1.VolumeContentSource.SnapshotSource.toObject(message.snapshot, options, _depth + 1);
                    if (options.oneofs)
                        object.type = "snapshot";
                }
                if (message.volume != null && $Object.hasOwnProperty.call(message, "volume")) {
                    object.volume = $root.csi.v1.VolumeContentSource.VolumeSource.toObject(message.volume, options, _depth + 1);
                    if (options.oneofs)
                        object.type = "volume";
                }
                return object;
            };

            VolumeContentSource.prototype.toJSON = function() {
                return VolumeContentSource.toObject(this, $protobuf.util.toJSONOptions);
            };

            VolumeContentSource.SnapshotSource = (function() {

                const SnapshotSource = function (properties) {
                    if (properties)
                        for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                            if (properties[keys[i]] != null && keys[i] !== "__proto__")
                                this[keys[i]] = properties[keys[i]];
                };

                SnapshotSource.prototype.snapshot_id = "";

                SnapshotSource.encode = function (message, writer, _depth) {
                    if (!writer)
                        writer = $Writer.create();
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (message.snapshot_id != null && $Object.hasOwnProperty.call(message, "snapshot_id") && message.snapshot_id !== "")
                        writer.uint32(10).string(message.snapshot_id);
                    if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                        for (let i = 0; i < message.$unknowns.length; ++i)
                            writer.raw(message.$unknowns[i]);
                    return writer;
                };

                SnapshotSource.decode = function (reader, length, _end, _depth, _target) {
                    if (!(reader instanceof $Reader))
                        reader = $Reader.create(reader);
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    let end, message, value;
                    if (length === $undefined)
                        end = reader.len;
                    else {
                        end = reader.pos + length;
                        if (end > reader.len)
                            throw $RangeError("index out of range");
                        length = reader.len;
                        reader.len = end;
                    }
                    message = _target || new $root.csi.v1.VolumeContentSource.SnapshotSource();
                    while (reader.pos < end) {
                        let start = reader.pos;
                        let tag = reader.tag();
                        if (tag === _end) {
                            _end = $undefined;
                            break;
                        }
                        let wireType = tag & 7;
                        switch (tag >>>= 3) {
                        case 1: {
                                if (wireType !== 2)
                                    break;
                                if ((value = reader.stringVerify()).length)
                                    message.snapshot_id = value;
                                else
                                    delete message.snapshot_id;
                                continue;
                            }
                        }
                        reader.skipType(wireType, _depth, tag);
                        if (!reader.discardUnknown) {
                            $util.makeProp(message, "$unknowns", false);
                            (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                        }
                    }
                    if (length !== $undefined) {
                        if (reader.pos !== end)
                            throw $RangeError("index out of range");
                        reader.len = length;
                    }
                    if (_end !== $undefined)
                        throw $Error("missing end group");
                    return message;
                };

                SnapshotSource.fromObject = function (object, _depth) {
                    if (object instanceof $root.csi.v1.VolumeContentSource.SnapshotSource)
                        return object;
                    if (!$util.isObject(object))
                        throw $TypeError(".csi.v1.VolumeContentSource.SnapshotSource: object expected");
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    let message = new $root.csi.v1.VolumeContentSource.SnapshotSource();
                    if (object.snapshot_id != null)
                        if (typeof object.snapshot_id !== "string" || object.snapshot_id.length)
                            message.snapshot_id = $String(object.snapshot_id);
                    return message;
                };

                SnapshotSource.toObject = function (message, options, _depth) {
                    if (!options)
                        options = {};
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    let object = {};
                    if (options.defaults)
                        object.snapshot_id = "";
                    if (message.snapshot_id != null && $Object.hasOwnProperty.call(message, "snapshot_id"))
                        object.snapshot_id = message.snapshot_id;
                    return object;
                };

                SnapshotSource.prototype.toJSON = function() {
                    return SnapshotSource.toObject(this, $protobuf.util.toJSONOptions);
                };

                return SnapshotSource;
            })();

            VolumeContentSource.VolumeSource = (function() {

                const VolumeSource = function (properties) {
                    if (properties)
                        for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                            if (properties[keys[i]] != null && keys[i] !== "__proto__")
                                this[keys[i]] = properties[keys[i]];
                };

                VolumeSource.prototype.volume_id = "";

                VolumeSource.encode = function (message, writer, _depth) {
                    if (!writer)
                        writer = $Writer.create();
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (message.volume_id != null && $Object.hasOwnProperty.call(message, "volume_id") && message.volume_id !== "")
                        writer.uint32(10).string(message.volume_id);
                    if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                        for (let i = 0; i < message.$unknowns.length; ++i)
                            writer.raw(message.$unknowns[i]);
                    return writer;
                };

                VolumeSource.decode = function (reader, length, _end, _depth, _target) {
                    if (!(reader instanceof $Reader))
                        reader = $Reader.create(reader);
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    let end, message, value;
                    if (length === $undefined)
                        end = reader.len;
                    else {
                        end = reader.pos + length;
                        if (end > reader.len)
                            throw $RangeError("index out of range");
                        length = reader.len;
                        reader.len = end;
                    }
                    message = _target || new $root.csi.v1.VolumeContentSource.VolumeSource();
                    while (reader.pos < end) {
                        let start = reader.pos;
                        let tag = reader.tag();
                        if (tag === _end) {
                            _end = $undefined;
                            break;
                        }
                        let wireType = tag & 7;
                        switch (tag >>>= 3) {
                        case 1: {
                                if (wireType !== 2)
                                    break;
                                if ((value = reader.stringVerify()).length)
                                    message.volume_id = value;
                                else
                                    delete message.volume_id;
                                continue;
                            }
                        }
                        reader.skipType(wireType, _depth, tag);
                        if (!reader.discardUnknown) {
                            $util.makeProp(message, "$unknowns", false);
                            (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                        }
                    }
                    if (length !== $undefined) {
                        if (reader.pos !== end)
                            throw $RangeError("index out of range");
                        reader.len = length;
                    }
                    if (_end !== $undefined)
                        throw $Error("missing end group");
                    return message;
                };

                VolumeSource.fromObject = function (object, _depth) {
                    if (object instanceof $root.csi.v1.VolumeContentSource.VolumeSource)
                        return object;
                    if (!$util.isObject(object))
                        throw $TypeError(".csi.v1.VolumeContentSource.VolumeSource: object expected");
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    let message = new $root.csi.v1.VolumeContentSource.VolumeSource();
                    if (object.volume_id != null)
                        if (typeof object.volume_id !== "string" || object.volume_id.length)
                            message.volume_id = $String(object.volume_id);
                    return message;
                };

                VolumeSource.toObject = function (message, options, _depth) {
                    if (!options)
                        options = {};
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    let object = {};
                    if (options.defaults)
                        object.volume_id = "";
                    if (message.volume_id != null && $Object.hasOwnProperty.call(message, "volume_id"))
                        object.volume_id = message.volume_id;
                    return object;
                };

                VolumeSource.prototype.toJSON = function() {
                    return VolumeSource.toObject(this, $protobuf.util.toJSONOptions);
                };

                return VolumeSource;
            })();

            return VolumeContentSource;
        })();

        v1.CreateVolumeResponse = (function() {

            const CreateVolumeResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            CreateVolumeResponse.prototype.volume = null;

            CreateVolumeResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.volume != null && $Object.hasOwnProperty.call(message, "volume"))
                    $root.csi.v1.Volume.encode(message.volume, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            CreateVolumeResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.CreateVolumeResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.volume = $root.csi.v1.Volume.decode(reader, reader.size(), $undefined, _depth + 1, message.volume);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            CreateVolumeResponse.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.CreateVolumeResponse)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.CreateVolumeResponse: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.csi.v1.CreateVolumeResponse();
                if (object.volume != null) {
                    if (!$util.isObject(object.volume))
                        throw $TypeError(".csi.v1.CreateVolumeResponse.volume: object expected");
                    message.volume = $root.csi.v1.Volume.fromObject(object.volume, _depth + 1);
                }
                return message;
            };

            CreateVolumeResponse.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults)
                    object.volume = null;
                if (message.volume != null && $Object.hasOwnProperty.call(message, "volume"))
                    object.volume = $root.csi.v1.Volume.toObject(message.volume, options, _depth + 1);
                return object;
            };

            CreateVolumeResponse.prototype.toJSON = function() {
                return CreateVolumeResponse.toObject(this, $protobuf.util.toJSONOptions);
            };

            return CreateVolumeResponse;
        })();

        v1.VolumeCapability = (function() {

            const VolumeCapability = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            VolumeCapability.prototype.block = null;
            VolumeCapability.prototype.mount = null;
            VolumeCapability.prototype.access_mode = null;

            let $oneOfFields;

            $Object.defineProperty(VolumeCapability.prototype, "access_type", {
                get: $util.oneOfGetter($oneOfFields = ["block", "mount"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            VolumeCapability.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.block != null && $Object.hasOwnProperty.call(message, "block"))
                    $root.csi.v1.VolumeCapability.BlockVolume.encode(message.block, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.mount != null && $Object.hasOwnProperty.call(message, "mount"))
                    $root.csi.v1.VolumeCapability.MountVolume.encode(message.mount, writer.uint32(18).fork(), _depth + 1).ldelim();
                if (message.access_mode != null && $Object.hasOwnProperty.call(message, "access_mode"))
                    $root.csi.v1.VolumeCapability.AccessMode.encode(message.access_mode, writer.uint32(26).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            VolumeCapability.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.VolumeCapability();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.block = $root.csi.v1.VolumeCapability.BlockVolume.decode(reader, reader.size(), $undefined, _depth + 1, message.block);
                            message.access_type = "block";
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            message.mount = $root.csi.v1.VolumeCapability.MountVolume.decode(reader, reader.size(), $undefined, _depth + 1, message.mount);
                            message.access_type = "mount";
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            message.access_mode = $root.csi.v1.VolumeCapability.AccessMode.decode(reader, reader.size(), $undefined, _depth + 1, message.access_mode);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            VolumeCapability.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.VolumeCapability)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.VolumeCapability: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.csi.v1.VolumeCapability();
                if (object.block != null) {
                    if (!$util.isObject(object.block))
                        throw $TypeError(".csi.v1.VolumeCapability.block: object expected");
                    message.block = $root.csi.v1.VolumeCapability.BlockVolume.fromObject(object.block, _depth + 1);
                }
                if (object.mount != null) {
                    if (!$util.isObject(object.mount))
                        throw $TypeError(".csi.v1.VolumeCapability.mount: object expected");
                    message.mount = $root.csi.v1.VolumeCapability.MountVolume.fromObject(object.mount, _depth + 1);
                }
                if (object.access_mode != null) {
                    if (!$util.isObject(object.access_mode))
                        throw $TypeError(".csi.v1.VolumeCapability.access_mode: object expected");
                    message.access_mode = $root.csi.v1.VolumeCapability.AccessMode.fromObject(object.access_mode, _depth + 1);
                }
                return message;
            };

            VolumeCapability.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults)
                    object.access_mode = null;
                if (message.block != null && $Object.hasOwnProperty.call(message, "block")) {
                    object.block = $root.csi.v1.VolumeCapability.BlockVolume.toObject(message.block, options, _depth + 1);
                    if (options.oneofs)
                        object.access_type = "block";
                }
                if (message.mount != null && $Object.hasOwnProperty.call(message, "mount")) {
                    object.mount = $root.csi.v1.VolumeCapability.MountVolume.toObject(message.mount, options, _depth + 1);
                    if (options.oneofs)
                        object.access_type = "mount";
                }
                if (message.access_mode != null && $Object.hasOwnProperty.call(message, "access_mode"))
                    object.access_mode = $root.csi.v1.VolumeCapability.AccessMode.toObject(message.access_mode, options, _depth + 1);
                return object;
            };

            VolumeCapability.prototype.toJSON = function() {
                return VolumeCapability.toObject(this, $protobuf.util.toJSONOptions);
            };

            VolumeCapability.BlockVolume = (function() {

                const BlockVolume = function (properties) {
                    if (properties)
                        for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                            if (properties[keys[i]] != null && keys[i] !== "__proto__")
                                this[keys[i]] = properties[keys[i]];
                };

                BlockVolume.encode = function (message, writer, _depth) {
                    if (!writer)
                        writer = $Writer.create();
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                        for (let i = 0; i < message.$unknowns.length; ++i)
                            writer.raw(message.$unknowns[i]);
                    return writer;
                };

                BlockVolume.decode = function (reader, length, _end, _depth, _target) {
                    if (!(reader instanceof $Reader))
                        reader = $Reader.create(reader);
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    let end, message;
                    if (length === $undefined)
                        end = reader.len;
                    else {
                        end = reader.pos + length;
                        if (end > reader.len)
                            throw $RangeError("index out of range");
                        length = reader.len;
                        reader.len = end;
                    }
                    message = _target || new $root.csi.v1.VolumeCapability.BlockVolume();
                    while (reader.pos < end) {
                        let start = reader.pos;
                        let tag = reader.tag();
                        if (tag === _end) {
                            _end = $undefined;
                            break;
                        }
                        reader.skipType(tag & 7, _depth, tag);
                        if (!reader.discardUnknown) {
                            $util.makeProp(message, "$unknowns", false);
                            (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                        }
                    }
                    if (length !== $undefined) {
                        if (reader.pos !== end)
                            throw $RangeError("index out of range");
                        reader.len = length;
                    }
                    if (_end !== $undefined)
                        throw $Error("missing end group");
                    return message;
                };

                BlockVolume.fromObject = function (object, _depth) {
                    if (object instanceof $root.csi.v1.VolumeCapability.BlockVolume)
                        return object;
                    if (!$util.isObject(object))
                        throw $TypeError(".csi.v1.VolumeCapability.BlockVolume: object expected");
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    return new $root.csi.v1.VolumeCapability.BlockVolume();
                };

                BlockVolume.toObject = function () {
                    return {};
                };

                BlockVolume.prototype.toJSON = function() {
                    return BlockVolume.toObject(this, $protobuf.util.toJSONOptions);
                };

                return BlockVolume;
            })();

            VolumeCapability.MountVolume = (function() {

                const MountVolume = function (properties) {
                    this.mount_flags = [];
                    if (properties)
                        for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                            if (properties[keys[i]] != null && keys[i] !== "__proto__")
                                this[keys[i]] = properties[keys[i]];
                };

                MountVolume.prototype.fs_type = "";
                MountVolume.prototype.mount_flags = $util.emptyArray;
                MountVolume.prototype.volume_mount_group = "";

                MountVolume.encode = function (message, writer, _depth) {
                    if (!writer)
                        writer = $Writer.create();
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (message.fs_type != null && $Object.hasOwnProperty.call(message, "fs_type") && message.fs_type !== "")
                        writer.uint32(10).string(message.fs_type);
                    if (message.mount_flags != null && message.mount_flags.length)
                        for (let i = 0; i < message.mount_flags.length; ++i)
                            writer.uint32(18).string(message.mount_flags[i]);
                    if (message.volume_mount_group != null && $Object.hasOwnProperty.call(message, "volume_mount_group") && message.volume_mount_group !== "")
                        writer.uint32(26).string(message.volume_mount_group);
                    if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                        for (let i = 0; i < message.$unknowns.length; ++i)
                            writer.raw(message.$unknowns[i]);
                    return writer;
                };

                MountVolume.decode = function (reader, length, _end, _depth, _target) {
                    if (!(reader instanceof $Reader))
                        reader = $Reader.create(reader);
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    let end, message, value;
                    if (length === $undefined)
                        end = reader.len;
                    else {
                        end = reader.pos + length;
                        if (end > reader.len)
                            throw $RangeError("index out of range");
                        length = reader.len;
                        reader.len = end;
                    }
                    message = _target || new $root.csi.v1.VolumeCapability.MountVolume();
                    while (reader.pos < end) {
                        let start = reader.pos;
                        let tag = reader.tag();
                        if (tag === _end) {
                            _end = $undefined;
                            break;
                        }
                        let wireType = tag & 7;
                        switch (tag >>>= 3) {
                        case 1: {
                                if (wireType !== 2)
                                    break;
                                if ((value = reader.stringVerify()).length)
                                    message.fs_type = value;
                                else
                                    delete message.fs_type;
                                continue;
                            }
                        case 2: {
                                if (wireType !== 2)
                                    break;
                                if (!(message.mount_flags && message.mount_flags.length))
                                    message.mount_flags = [];
                                message.mount_flags.push(reader.stringVerify());
                                continue;
                            }
                        case 3: {
                                if (wireType !== 2)
                                    break;
                                if ((value = reader.stringVerify()).length)
                                    message.volume_mount_group = value;
                                else
                                    delete message.volume_mount_group;
                                continue;
                            }
                        }
                        reader.skipType(wireType, _depth, tag);
                        if (!reader.discardUnknown) {
                            $util.makeProp(message, "$unknowns", false);
                            (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                        }
                    }
                    if (length !== $undefined) {
                        if (reader.pos !== end)
                            throw $RangeError("index out of range");
                        reader.len = length;
                    }
                    if (_end !== $undefined)
                        throw $Error("missing end group");
                    return message;
                };

                MountVolume.fromObject = function (object, _depth) {
                    if (object instanceof $root.csi.v1.VolumeCapability.MountVolume)
                        return object;
                    if (!$util.isObject(object))
                        throw $TypeError(".csi.v1.VolumeCapability.MountVolume: object expected");
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    let message = new $root.csi.v1.VolumeCapability.MountVolume();
                    if (object.fs_type != null)
                        if (typeof object.fs_type !== "string" || object.fs_type.length)
                            message.fs_type = $String(object.fs_type);
                    if (object.mount_flags) {
                        if (!$Array.isArray(object.mount_flags))
                            throw $TypeError(".csi.v1.VolumeCapability.MountVolume.mount_flags: array expected");
                        message.mount_flags = $Array(object.mount_flags.length);
                        for (let i = 0; i < object.mount_flags.length; ++i)
                            message.mount_flags[i] = $String(object.mount_flags[i]);
                    }
                    if (object.volume_mount_group != null)
                        if (typeof object.volume_mount_group !== "string" || object.volume_mount_group.length)
                            message.volume_mount_group = $String(object.volume_mount_group);
                    return message;
                };

                MountVolume.toObject = function (message, options, _depth) {
                    if (!options)
                        options = {};
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    let object = {};
                    if (options.arrays || options.defaults)
                        object.mount_flags = [];
                    if (options.defaults) {
                        object.fs_type = "";
                        object.volume_mount_group = "";
                    }
                    if (message.fs_type != null && $Object.hasOwnProperty.call(message, "fs_type"))
                        object.fs_type = message.fs_type;
                    if (message.mount_flags && message.mount_flags.length) {
                        object.mount_flags = $Array(message.mount_flags.length);
                        for (let j = 0; j < message.mount_flags.length; ++j)
                            object.mount_flags[j] = message.mount_flags[j];
                    }
                    if (message.volume_mount_group != null && $Object.hasOwnProperty.call(message, "volume_mount_group"))
                        object.volume_mount_group = message.volume_mount_group;
                    return object;
                };

                MountVolume.prototype.toJSON = function() {
                    return MountVolume.toObject(this, $protobuf.util.toJSONOptions);
                };

                return MountVolume;
            })();

            VolumeCapability.AccessMode = (function() {

                const AccessMode = function (properties) {
                    if (properties)
                        for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                            if (properties[keys[i]] != null && keys[i] !== "__proto__")
                                this[keys[i]] = properties[keys[i]];
                };

                AccessMode.prototype.mode = 0;

                AccessMode.encode = function (message, writer, _depth) {
                    if (!writer)
                        writer = $Writer.create();
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (message.mode != null && $Object.hasOwnProperty.call(message, "mode") && message.mode !== 0)
                        writer.uint32(8).int32(message.mode);
                    if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                        for (let i = 0; i < message.$unknowns.length; ++i)
                            writer.raw(message.$unknowns[i]);
                    return writer;
                };

                AccessMode.decode = function (reader, length, _end, _depth, _target) {
                    if (!(reader instanceof $Reader))
                        reader = $Reader.create(reader);
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    let end, message, value;
                    if (length === $undefined)
                        end = reader.len;
                    else {
                        end = reader.pos + length;
                        if (end > reader.len)
                            throw $RangeError("index out of range");
                        length = reader.len;
                        reader.len = end;
                    }
                    message = _target || new $root.csi.v1.VolumeCapability.AccessMode();
                    while (reader.pos < end) {
                        let start = reader.pos;
                        let tag = reader.tag();
                        if (tag === _end) {
                            _end = $undefined;
                            break;
                        }
                        let wireType = tag & 7;
                        switch (tag >>>= 3) {
                        case 1: {
                                if (wireType !== 0)
                                    break;
                                if (value = reader.int32())
                                    message.mode = value;
                                else
                                    delete message.mode;
                                continue;
                            }
                        }
                        reader.skipType(wireType, _depth, tag);
                        if (!reader.discardUnknown) {
                            $util.makeProp(message, "$unknowns", false);
                            (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                        }
                    }
                    if (length !== $undefined) {
                        if (reader.pos !== end)
                            throw $RangeError("index out of range");
                        reader.len = length;
                    }
                    if (_end !== $undefined)
                        throw $Error("missing end group");
                    return message;
                };

                AccessMode.fromObject = function (object, _depth) {
                    if (object instanceof $root.csi.v1.VolumeCapability.AccessMode)
                        return object;
                    if (!$util.isObject(object))
                        throw $TypeError(".csi.v1.VolumeCapability.AccessMode: object expected");
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    let message = new $root.csi.v1.VolumeCapability.AccessMode();
                    if (object.mode !== 0 && (typeof object.mode !== "string" || $root.csi.v1.VolumeCapability.AccessMode.Mode[object.mode] !== 0))
                        switch (object.mode) {
                        case "UNKNOWN":
                        case 0:
                            message.mode = 0;
                            break;
                        case "SINGLE_NODE_WRITER":
                        case 1:
                            message.mode = 1;
                            break;
                        case "SINGLE_NODE_READER_ONLY":
                        case 2:
                            message.mode = 2;
                            break;
                        case "MULTI_NODE_READER_ONLY":
                        case 3:
                            message.mode = 3;
                            break;
                        case "MULTI_NODE_SINGLE_WRITER":
                        case 4:
                            message.mode = 4;
                            break;
                        case "MULTI_NODE_MULTI_WRITER":
                        case 5:
                            message.mode = 5;
                            break;
                        case "SINGLE_NODE_SINGLE_WRITER":
                        case 6:
                            message.mode = 6;
                            break;
                        case "SINGLE_NODE_MULTI_WRITER":
                        case 7:
                            message.mode = 7;
                            break;
                        default:
                            if (typeof object.mode === "number" && (object.mode | 0) === object.mode)
                                message.mode = object.mode;
                        }
                    return message;
                };

                AccessMode.toObject = function (message, options, _depth) {
                    if (!options)
                        options = {};
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    let object = {};
                    if (options.defaults)
                        object.mode = options.enums === $String ? "UNKNOWN" : 0;
                    if (message.mode != null && $Object.hasOwnProperty.call(message, "mode"))
                        object.mode = options.enums === $String ? $root.csi.v1.VolumeCapability.AccessMode.Mode[message.mode] === $undefined ? message.mode : $root.csi.v1.VolumeCapability.AccessMode.Mode[message.mode] : message.mode;
                    return object;
                };

                AccessMode.prototype.toJSON = function() {
                    return AccessMode.toObject(this, $protobuf.util.toJSONOptions);
                };

                AccessMode.Mode = (function() {
                    const valuesById = $Object.create(null), values = $Object.create(valuesById);
                    values[valuesById[0] = "UNKNOWN"] = 0;
                    values[valuesById[1] = "SINGLE_NODE_WRITER"] = 1;
                    values[valuesById[2] = "SINGLE_NODE_READER_ONLY"] = 2;
                    values[valuesById[3] = "MULTI_NODE_READER_ONLY"] = 3;
                    values[valuesById[4] = "MULTI_NODE_SINGLE_WRITER"] = 4;
                    values[valuesById[5] = "MULTI_NODE_MULTI_WRITER"] = 5;
                    values[valuesById[6] = "SINGLE_NODE_SINGLE_WRITER"] = 6;
                    values[valuesById[7] = "SINGLE_NODE_MULTI_WRITER"] = 7;
                    return values;
                })();

                return AccessMode;
            })();

            return VolumeCapability;
        })();

        v1.CapacityRange = (function() {

            const CapacityRange = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            CapacityRange.prototype.required_bytes = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            CapacityRange.prototype.limit_bytes = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            CapacityRange.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.required_bytes != null && $Object.hasOwnProperty.call(message, "required_bytes") && (typeof message.required_bytes === "object" ? message.required_bytes.low || message.required_bytes.high : message.required_bytes !== 0))
                    writer.uint32(8).int64(message.required_bytes);
                if (message.limit_bytes != null && $Object.hasOwnProperty.call(message, "limit_bytes") && (typeof message.limit_bytes === "object" ? message.limit_bytes.low || message.limit_bytes.high : message.limit_bytes !== 0))
                    writer.uint32(16).int64(message.limit_bytes);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            CapacityRange.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.CapacityRange();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.required_bytes = value;
                            else
                                delete message.required_bytes;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.limit_bytes = value;
                            else
                                delete message.limit_bytes;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            CapacityRange.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.CapacityRange)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.CapacityRange: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.csi.v1.CapacityRange();
                if (object.required_bytes != null)
                    if (typeof object.required_bytes === "object" ? object.required_bytes.low || object.required_bytes.high : $Number(object.required_bytes) !== 0)
                        if ($util.Long)
                            message.required_bytes = $util.Long.fromValue(object.required_bytes, false);
                        else if (typeof object.required_bytes === "string")
                            message.required_bytes = $parseInt(object.required_bytes, 10);
                        else if (typeof object.required_bytes === "number")
                            message.required_bytes = object.required_bytes;
                        else if (typeof object.required_bytes === "object")
                            message.required_bytes = new $util.LongBits(object.required_bytes.low >>> 0, object.required_bytes.high >>> 0).toNumber();
                if (object.limit_bytes != null)
                    if (typeof object.limit_bytes === "object" ? object.limit_bytes.low || object.limit_bytes.high : $Number(object.limit_bytes) !== 0)
                        if ($util.Long)
                            message.limit_bytes = $util.Long.fromValue(object.limit_bytes, false);
                        else if (typeof object.limit_bytes === "string")
                            message.limit_bytes = $parseInt(object.limit_bytes, 10);
                        else if (typeof object.limit_bytes === "number")
                            message.limit_bytes = object.limit_bytes;
                        else if (typeof object.limit_bytes === "object")
                            message.limit_bytes = new $util.LongBits(object.limit_bytes.low >>> 0, object.limit_bytes.high >>> 0).toNumber();
                return message;
            };

            CapacityRange.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults) {
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, false);
                        object.required_bytes = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.required_bytes = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, false);
                        object.limit_bytes = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.limit_bytes = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                }
                if (message.required_bytes != null && $Object.hasOwnProperty.call(message, "required_bytes"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.required_bytes = typeof message.required_bytes === "number" ? $BigInt(message.required_bytes) : $util.Long.fromBits(message.required_bytes.low >>> 0, message.required_bytes.high >>> 0, false).toBigInt();
                    else if (typeof message.required_bytes === "number")
                        object.required_bytes = options.longs === $String ? $String(message.required_bytes) : message.required_bytes;
                    else
                        object.required_bytes = options.longs === $String ? $util.Long.prototype.toString.call(message.required_bytes) : options.longs === $Number ? new $util.LongBits(message.required_bytes.low >>> 0, message.required_bytes.high >>> 0).toNumber() : message.required_bytes;
                if (message.limit_bytes != null && $Object.hasOwnProperty.call(message, "limit_bytes"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.limit_bytes = typeof message.limit_bytes === "number" ? $BigInt(message.limit_bytes) : $util.Long.fromBits(message.limit_bytes.low >>> 0, message.limit_bytes.high >>> 0, false).toBigInt();
                    else if (typeof message.limit_bytes === "number")
                        object.limit_bytes = options.longs === $String ? $String(message.limit_bytes) : message.limit_bytes;
                    else
                        object.limit_bytes = options.longs === $String ? $util.Long.prototype.toString.call(message.limit_bytes) : options.longs === $Number ? new $util.LongBits(message.limit_bytes.low >>> 0, message.limit_bytes.high >>> 0).toNumber() : message.limit_bytes;
                return object;
            };

            CapacityRange.prototype.toJSON = function() {
                return CapacityRange.toObject(this, $protobuf.util.toJSONOptions);
            };

            return CapacityRange;
        })();

        v1.Volume = (function() {

            const Volume = function (properties) {
                this.volume_context = {};
                this.accessible_topology = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            Volume.prototype.capacity_bytes = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            Volume.prototype.volume_id = "";
            Volume.prototype.volume_context = $util.emptyObject;
            Volume.prototype.content_source = null;
            Volume.prototype.accessible_topology = $util.emptyArray;

            Volume.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.capacity_bytes != null && $Object.hasOwnProperty.call(message, "capacity_bytes") && (typeof message.capacity_bytes === "object" ? message.capacity_bytes.low || message.capacity_bytes.high : message.capacity_bytes !== 0))
                    writer.uint32(8).int64(message.capacity_bytes);
                if (message.volume_id != null && $Object.hasOwnProperty.call(message, "volume_id") && message.volume_id !== "")
                    writer.uint32(18).string(message.volume_id);
                if (message.volume_context != null && $Object.hasOwnProperty.call(message, "volume_context"))
                    for (let keys = $Object.keys(message.volume_context), i = 0; i < keys.length; ++i)
                        writer.uint32(26).fork().uint32(10).string(keys[i]).uint32(18).string(message.volume_context[keys[i]]).ldelim();
                if (message.content_source != null && $Object.hasOwnProperty.call(message, "content_source"))
                    $root.csi.v1.VolumeContentSource.encode(message.content_source, writer.uint32(34).fork(), _depth + 1).ldelim();
                if (message.accessible_topology != null && message.accessible_topology.length)
                    for (let i = 0; i < message.accessible_topology.length; ++i)
                        $root.csi.v1.Topology.encode(message.accessible_topology[i], writer.uint32(42).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            Volume.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, key, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.Volume();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.capacity_bytes = value;
                            else
                                delete message.capacity_bytes;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.volume_id = value;
                            else
                                delete message.volume_id;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if (message.volume_context === $util.emptyObject)
                                message.volume_context = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = "";
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = reader.stringVerify();
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.volume_context, key);
                            message.volume_context[key] = value;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            message.content_source = $root.csi.v1.VolumeContentSource.decode(reader, reader.size(), $undefined, _depth + 1, message.content_source);
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            if (!(message.accessible_topology && message.accessible_topology.length))
                                message.accessible_topology = [];
                            message.accessible_topology.push($root.csi.v1.Topology.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            Volume.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.Volume)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.Volume: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.csi.v1.Volume();
                if (object.capacity_bytes != null)
                    if (typeof object.capacity_bytes === "object" ? object.capacity_bytes.low || object.capacity_bytes.high : $Number(object.capacity_bytes) !== 0)
                        if ($util.Long)
                            message.capacity_bytes = $util.Long.fromValue(object.capacity_bytes, false);
                        else if (typeof object.capacity_bytes === "string")
                            message.capacity_bytes = $parseInt(object.capacity_bytes, 10);
                        else if (typeof object.capacity_bytes === "number")
                            message.capacity_bytes = object.capacity_bytes;
                        else if (typeof object.capacity_bytes === "object")
                            message.capacity_bytes = new $util.LongBits(object.capacity_bytes.low >>> 0, object.capacity_bytes.high >>> 0).toNumber();
                if (object.volume_id != null)
                    if (typeof object.volume_id !== "string" || object.volume_id.length)
                        message.volume_id = $String(object.volume_id);
                if (object.volume_context) {
                    if (!$util.isObject(object.volume_context))
                        throw $TypeError(".csi.v1.Volume.volume_context: object expected");
                    message.volume_context = {};
                    for (let keys = $Object.keys(object.volume_context), i = 0; i < keys.length; ++i) {
                        if (keys[i] === "__proto__")
                            $util.makeProp(message.volume_context, keys[i]);
                        message.volume_context[keys[i]] = $String(object.volume_context[keys[i]]);
                    }
                }
                if (object.content_source != null) {
                    if (!$util.isObject(object.content_source))
                        throw $TypeError(".csi.v1.Volume.content_source: object expected");
                    message.content_source = $root.csi.v1.VolumeContentSource.fromObject(object.content_source, _depth + 1);
                }
                if (object.accessible_topology) {
                    if (!$Array.isArray(object.accessible_topology))
                        throw $TypeError(".csi.v1.Volume.accessible_topology: array expected");
                    message.accessible_topology = $Array(object.accessible_topology.length);
                    for (let i = 0; i < object.accessible_topology.length; ++i) {
                        if (!$util.isObject(object.accessible_topology[i]))
                            throw $TypeError(".csi.v1.Volume.accessible_topology: object expected");
                        message.accessible_topology[i] = $root.csi.v1.Topology.fromObject(object.accessible_topology[i], _depth + 1);
                    }
                }
                return message;
            };

            Volume.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.arrays || options.defaults)
                    object.accessible_topology = [];
                if (options.objects || options.defaults)
                    object.volume_context = {};
                if (options.defaults) {
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, false);
                        object.capacity_bytes = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.capacity_bytes = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                    object.volume_id = "";
                    object.content_source = null;
                }
                if (message.capacity_bytes != null && $Object.hasOwnProperty.call(message, "capacity_bytes"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.capacity_bytes = typeof message.capacity_bytes === "number" ? $BigInt(message.capacity_bytes) : $util.Long.fromBits(message.capacity_bytes.low >>> 0, message.capacity_bytes.high >>> 0, false).toBigInt();
                    else if (typeof message.capacity_bytes === "number")
                        object.capacity_bytes = options.longs === $String ? $String(message.capacity_bytes) : message.capacity_bytes;
                    else
                        object.capacity_bytes = options.longs === $String ? $util.Long.prototype.toString.call(message.capacity_bytes) : options.longs === $Number ? new $util.LongBits(message.capacity_bytes.low >>> 0, message.capacity_bytes.high >>> 0).toNumber() : message.capacity_bytes;
                if (message.volume_id != null && $Object.hasOwnProperty.call(message, "volume_id"))
                    object.volume_id = message.volume_id;
                let keys2;
                if (message.volume_context && (keys2 = $Object.keys(message.volume_context)).length) {
                    object.volume_context = {};
                    for (let j = 0; j < keys2.length; ++j) {
                        if (keys2[j] === "__proto__")
                            $util.makeProp(object.volume_context, keys2[j]);
                        object.volume_context[keys2[j]] = message.volume_context[keys2[j]];
                    }
                }
                if (message.content_source != null && $Object.hasOwnProperty.call(message, "content_source"))
                    object.content_source = $root.csi.v1.VolumeContentSource.toObject(message.content_source, options, _depth + 1);
                if (message.accessible_topology && message.accessible_topology.length) {
                    object.accessible_topology = $Array(message.accessible_topology.length);
                    for (let j = 0; j < message.accessible_topology.length; ++j)
                        object.accessible_topology[j] = $root.csi.v1.Topology.toObject(message.accessible_topology[j], options, _depth + 1);
                }
                return object;
            };

            Volume.prototype.toJSON = function() {
                return Volume.toObject(this, $protobuf.util.toJSONOptions);
            };

            return Volume;
        })();

        v1.TopologyRequirement = (function() {

            const TopologyRequirement = function (properties) {
                this.requisite = [];
                this.preferred = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            TopologyRequirement.prototype.requisite = $util.emptyArray;
            TopologyRequirement.prototype.preferred = $util.emptyArray;

            TopologyRequirement.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.requisite != null && message.requisite.length)
                    for (let i = 0; i < message.requisite.length; ++i)
                        $root.csi.v1.Topology.encode(message.requisite[i], writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.preferred != null && message.preferred.length)
                    for (let i = 0; i < message.preferred.length; ++i)
                        $root.csi.v1.Topology.encode(message.preferred[i], writer.uint32(18).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            TopologyRequirement.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.TopologyRequirement();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.requisite && message.requisite.length))
                                message.requisite = [];
                            message.requisite.push($root.csi.v1.Topology.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if (!(message.preferred && message.preferred.length))
                                message.preferred = [];
                            message.preferred.push($root.csi.v1.Topology.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            TopologyRequirement.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.TopologyRequirement)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.TopologyRequirement: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.csi.v1.TopologyRequirement();
                if (object.requisite) {
                    if (!$Array.isArray(object.requisite))
                        throw $TypeError(".csi.v1.TopologyRequirement.requisite: array expected");
                    message.requisite = $Array(object.requisite.length);
                    for (let i = 0; i < object.requisite.length; ++i) {
                        if (!$util.isObject(object.requisite[i]))
                            throw $TypeError(".csi.v1.TopologyRequirement.requisite: object expected");
                        message.requisite[i] = $root.csi.v1.Topology.fromObject(object.requisite[i], _depth + 1);
                    }
                }
                if (object.preferred) {
                    if (!$Array.isArray(object.preferred))
                        throw $TypeError(".csi.v1.TopologyRequirement.preferred: array expected");
                    message.preferred = $Array(object.preferred.length);
                    for (let i = 0; i < object.preferred.length; ++i) {
                        if (!$util.isObject(object.preferred[i]))
                            throw $TypeError(".csi.v1.TopologyRequirement.preferred: object expected");
                        message.preferred[i] = $root.csi.v1.Topology.fromObject(object.preferred[i], _depth + 1);
                    }
                }
                return message;
            };

            TopologyRequirement.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.arrays || options.defaults) {
                    object.requisite = [];
                    object.preferred = [];
                }
                if (message.requisite && message.requisite.length) {
                    object.requisite = $Array(message.requisite.length);
                    for (let j = 0; j < message.requisite.length; ++j)
                        object.requisite[j] = $root.csi.v1.Topology.toObject(message.requisite[j], options, _depth + 1);
                }
                if (message.preferred && message.preferred.length) {
                    object.preferred = $Array(message.preferred.length);
                    for (let j = 0; j < message.preferred.length; ++j)
                        object.preferred[j] = $root.csi.v1.Topology.toObject(message.preferred[j], options, _depth + 1);
                }
                return object;
            };

            TopologyRequirement.prototype.toJSON = function() {
                return TopologyRequirement.toObject(this, $protobuf.util.toJSONOptions);
            };

            return TopologyRequirement;
        })();

        v1.Topology = (function() {

            const Topology = function (properties) {
                this.segments = {};
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            Topology.prototype.segments = $util.emptyObject;

            Topology.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.segments != null && $Object.hasOwnProperty.call(message, "segments"))
                    for (let keys = $Object.keys(message.segments), i = 0; i < keys.length; ++i)
                        writer.uint32(10).fork().uint32(10).string(keys[i]).uint32(18).string(message.segments[keys[i]]).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            Topology.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, key, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.Topology();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (message.segments === $util.emptyObject)
                                message.segments = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = "";
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = reader.stringVerify();
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.segments, key);
                            message.segments[key] = value;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            Topology.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.Topology)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.Topology: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.csi.v1.Topology();
                if (object.segments) {
                    if (!$util.isObject(object.segments))
                        throw $TypeError(".csi.v1.Topology.segments: object expected");
                    message.segments = {};
                    for (let keys = $Object.keys(object.segments), i = 0; i < keys.length; ++i) {
                        if (keys[i] === "__proto__")
                            $util.makeProp(message.segments, keys[i]);
                        message.segments[keys[i]] = $String(object.segments[keys[i]]);
                    }
                }
                return message;
            };

            Topology.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.objects || options.defaults)
                    object.segments = {};
                let keys2;
                if (message.segments && (keys2 = $Object.keys(message.segments)).length) {
                    object.segments = {};
                    for (let j = 0; j < keys2.length; ++j) {
                        if (keys2[j] === "__proto__")
                            $util.makeProp(object.segments, keys2[j]);
                        object.segments[keys2[j]] = message.segments[keys2[j]];
                    }
                }
                return object;
            };

            Topology.prototype.toJSON = function() {
                return Topology.toObject(this, $protobuf.util.toJSONOptions);
            };

            return Topology;
        })();

        v1.DeleteVolumeRequest = (function() {

            const DeleteVolumeRequest = function (properties) {
                this.secrets = {};
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            DeleteVolumeRequest.prototype.volume_id = "";
            DeleteVolumeRequest.prototype.secrets = $util.emptyObject;

            DeleteVolumeRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.volume_id != null && $Object.hasOwnProperty.call(message, "volume_id") && message.volume_id !== "")
                    writer.uint32(10).string(message.volume_id);
                if (message.secrets != null && $Object.hasOwnProperty.call(message, "secrets"))
                    for (let keys = $Object.keys(message.secrets), i = 0; i < keys.length; ++i)
                        writer.uint32(18).fork().uint32(10).string(keys[i]).uint32(18).string(message.secrets[keys[i]]).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            DeleteVolumeRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, key, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.DeleteVolumeRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.volume_id = value;
                            else
                                delete message.volume_id;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if (message.secrets === $util.emptyObject)
                                message.secrets = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = "";
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = reader.stringVerify();
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.secrets, key);
                            message.secrets[key] = value;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            DeleteVolumeRequest.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.DeleteVolumeRequest)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.DeleteVolumeRequest: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.csi.v1.DeleteVolumeRequest();
                if (object.volume_id != null)
                    if (typeof object.volume_id !== "string" || object.volume_id.length)
                        message.volume_id = $String(object.volume_id);
                if (object.secrets) {
                    if (!$util.isObject(object.secrets))
                        throw $TypeError(".csi.v1.DeleteVolumeRequest.secrets: object expected");
                    message.secrets = {};
                    for (let keys = $Object.keys(object.secrets), i = 0; i < keys.length; ++i) {
                        if (keys[i] === "__proto__")
                            $util.makeProp(message.secrets, keys[i]);
                        message.secrets[keys[i]] = $String(object.secrets[keys[i]]);
                    }
                }
                return message;
            };

            DeleteVolumeRequest.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.objects || options.defaults)
                    object.secrets = {};
                if (options.defaults)
                    object.volume_id = "";
                if (message.volume_id != null && $Object.hasOwnProperty.call(message, "volume_id"))
                    object.volume_id = message.volume_id;
                let keys2;
                if (message.secrets && (keys2 = $Object.keys(message.secrets)).length) {
                    object.secrets = {};
                    for (let j = 0; j < keys2.length; ++j) {
                        if (keys2[j] === "__proto__")
                            $util.makeProp(object.secrets, keys2[j]);
                        object.secrets[keys2[j]] = message.secrets[keys2[j]];
                    }
                }
                return object;
            };

            DeleteVolumeRequest.prototype.toJSON = function() {
                return DeleteVolumeRequest.toObject(this, $protobuf.util.toJSONOptions);
            };

            return DeleteVolumeRequest;
        })();

        v1.DeleteVolumeResponse = (function() {

            const DeleteVolumeResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            DeleteVolumeResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            DeleteVolumeResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.DeleteVolumeResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    reader.skipType(tag & 7, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            DeleteVolumeResponse.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.DeleteVolumeResponse)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.DeleteVolumeResponse: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                return new $root.csi.v1.DeleteVolumeResponse();
            };

            DeleteVolumeResponse.toObject = function () {
                return {};
            };

            DeleteVolumeResponse.prototype.toJSON = function() {
                return DeleteVolumeResponse.toObject(this, $protobuf.util.toJSONOptions);
            };

            return DeleteVolumeResponse;
        })();

        v1.ValidateVolumeCapabilitiesRequest = (function() {

            const ValidateVolumeCapabilitiesRequest = function (properties) {
                this.volume_context = {};
                this.volume_capabilities = [];
                this.parameters = {};
                this.secrets = {};
                this.mutable_parameters = {};
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ValidateVolumeCapabilitiesRequest.prototype.volume_id = "";
            ValidateVolumeCapabilitiesRequest.prototype.volume_context = $util.emptyObject;
            ValidateVolumeCapabilitiesRequest.prototype.volume_capabilities = $util.emptyArray;
            ValidateVolumeCapabilitiesRequest.prototype.parameters = $util.emptyObject;
            ValidateVolumeCapabilitiesRequest.prototype.secrets = $util.emptyObject;
            ValidateVolumeCapabilitiesRequest.prototype.mutable_parameters = $util.emptyObject;

            ValidateVolumeCapabilitiesRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.volume_id != null && $Object.hasOwnProperty.call(message, "volume_id") && message.volume_id !== "")
                    writer.uint32(10).string(message.volume_id);
                if (message.volume_context != null && $Object.hasOwnProperty.call(message, "volume_context"))
                    for (let keys = $Object.keys(message.volume_context), i = 0; i < keys.length; ++i)
                        writer.uint32(18).fork().uint32(10).string(keys[i]).uint32(18).string(message.volume_context[keys[i]]).ldelim();
                if (message.volume_capabilities != null && message.volume_capabilities.length)
                    for (let i = 0; i < message.volume_capabilities.length; ++i)
                        $root.csi.v1.VolumeCapability.encode(message.volume_capabilities[i], writer.uint32(26).fork(), _depth + 1).ldelim();
                if (message.parameters != null && $Object.hasOwnProperty.call(message, "parameters"))
                    for (let keys = $Object.keys(message.parameters), i = 0; i < keys.length; ++i)
                        writer.uint32(34).fork().uint32(10).string(keys[i]).uint32(18).string(message.parameters[keys[i]]).ldelim();
                if (message.secrets != null && $Object.hasOwnProperty.call(message, "secrets"))
                    for (let keys = $Object.keys(message.secrets), i = 0; i < keys.length; ++i)
                        writer.uint32(42).fork().uint32(10).string(keys[i]).uint32(18).string(message.secrets[keys[i]]).ldelim();
                if (message.mutable_parameters != null && $Object.hasOwnProperty.call(message, "mutable_parameters"))
                    for (let keys = $Object.keys(message.mutable_parameters), i = 0; i < keys.length; ++i)
                        writer.uint32(50).fork().uint32(10).string(keys[i]).uint32(18).string(message.mutable_parameters[keys[i]]).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ValidateVolumeCapabilitiesRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, key, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.ValidateVolumeCapabilitiesRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.volume_id = value;
                            else
                                delete message.volume_id;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if (message.volume_context === $util.emptyObject)
                                message.volume_context = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = "";
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = reader.stringVerify();
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.volume_context, key);
                            message.volume_context[key] = value;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if (!(message.volume_capabilities && message.volume_capabilities.length))
                                message.volume_capabilities = [];
                            message.volume_capabilities.push($root.csi.v1.VolumeCapability.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if (message.parameters === $util.emptyObject)
                                message.parameters = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = "";
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = reader.stringVerify();
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.parameters, key);
                            message.parameters[key] = value;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            if (message.secrets === $util.emptyObject)
                                message.secrets = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = "";
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = reader.stringVerify();
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.secrets, key);
                            message.secrets[key] = value;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 2)
                                break;
                            if (message.mutable_parameters === $util.emptyObject)
                                message.mutable_parameters = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = "";
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = reader.stringVerify();
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.mutable_parameters, key);
                            message.mutable_parameters[key] = value;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ValidateVolumeCapabilitiesRequest.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.ValidateVolumeCapabilitiesRequest)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.ValidateVolumeCapabilitiesRequest: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.csi.v1.ValidateVolumeCapabilitiesRequest();
                if (object.volume_id != null)
                    if (typeof object.volume_id !== "string" || object.volume_id.length)
                        message.volume_id = $String(object.volume_id);
                if (object.volume_context) {
                    if (!$util.isObject(object.volume_context))
                        throw $TypeError(".csi.v1.ValidateVolumeCapabilitiesRequest.volume_context: object expected");
                    message.volume_context = {};
                    for (let keys = $Object.keys(object.volume_context), i = 0; i < keys.length; ++i) {
                        if (keys[i] === "__proto__")
                            $util.makeProp(message.volume_context, keys[i]);
                        message.volume_context[keys[i]] = $String(object.volume_context[keys[i]]);
                    }
                }
                if (object.volume_capabilities) {
                    if (!$Array.isArray(object.volume_capabilities))
                        throw $TypeError(".csi.v1.ValidateVolumeCapabilitiesRequest.volume_capabilities: array expected");
                    message.volume_capabilities = $Array(object.volume_capabilities.length);
                    for (let i = 0; i < object.volume_capabilities.length; ++i) {
                        if (!$util.isObject(object.volume_capabilities[i]))
                            throw $TypeError(".csi.v1.ValidateVolumeCapabilitiesRequest.volume_capabilities: object expected");
                        message.volume_capabilities[i] = $root.csi.v1.VolumeCapability.fromObject(object.volume_capabilities[i], _depth + 1);
                    }
                }
                if (object.parameters) {
                    if (!$util.isObject(object.parameters))
                        throw $TypeError(".csi.v1.ValidateVolumeCapabilitiesRequest.parameters: object expected");
                    message.parameters = {};
                    for (let keys = $Object.keys(object.parameters), i = 0; i < keys.length; ++i) {
                        if (keys[i] === "__proto__")
                            $util.makeProp(message.parameters, keys[i]);
                        message.parameters[keys[i]] = $String(object.parameters[keys[i]]);
                    }
                }
                if (object.secrets) {
                    if (!$util.isObject(object.secrets))
                        throw $TypeError(".csi.v1.ValidateVolumeCapabilitiesRequest.secrets: object expected");
                    message.secrets = {};
                    for (let keys = $Object.keys(object.secrets), i = 0; i < keys.length; ++i) {
                        if (keys[i] === "__proto__")
                            $util.makeProp(message.secrets, keys[i]);
                        message.secrets[keys[i]] = $String(object.secrets[keys[i]]);
                    }
                }
                if (object.mutable_parameters) {
                    if (!$util.isObject(object.mutable_parameters))
                        throw $TypeError(".csi.v1.ValidateVolumeCapabilitiesRequest.mutable_parameters: object expected");
                    message.mutable_parameters = {};
                    for (let keys = $Object.keys(object.mutable_parameters), i = 0; i < keys.length; ++i) {
                        if (keys[i] === "__proto__")
                            $util.makeProp(message.mutable_parameters, keys[i]);
                        message.mutable_parameters[keys[i]] = $String(object.mutable_parameters[keys[i]]);
                    }
                }
                return message;
            };

            ValidateVolumeCapabilitiesRequest.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.arrays || options.defaults)
                    object.volume_capabilities = [];
                if (options.objects || options.defaults) {
                    object.volume_context = {};
                    object.parameters = {};
                    object.secrets = {};
                    object.mutable_parameters = {};
                }
                if (options.defaults)
                    object.volume_id = "";
                if (message.volume_id != null && $Object.hasOwnProperty.call(message, "volume_id"))
                    object.volume_id = message.volume_id;
                let keys2;
                if (message.volume_context && (keys2 = $Object.keys(message.volume_context)).length) {
                    object.volume_context = {};
                    for (let j = 0; j < keys2.length; ++j) {
                        if (keys2[j] === "__proto__")
                            $util.makeProp(object.volume_context, keys2[j]);
                        object.volume_context[keys2[j]] = message.volume_context[keys2[j]];
                    }
                }
                if (message.volume_capabilities && message.volume_capabilities.length) {
                    object.volume_capabilities = $Array(message.volume_capabilities.length);
                    for (let j = 0; j < message.volume_capabilities.length; ++j)
                        object.volume_capabilities[j] = $root.csi.v1.VolumeCapability.toObject(message.volume_capabilities[j], options, _depth + 1);
                }
                if (message.parameters && (keys2 = $Object.keys(message.parameters)).length) {
                    object.parameters = {};
                    for (let j = 0; j < keys2.length; ++j) {
                        if (keys2[j] === "__proto__")
                            $util.makeProp(object.parameters, keys2[j]);
                        object.parameters[keys2[j]] = message.parameters[keys2[j]];
                    }
                }
                if (message.secrets && (keys2 = $Object.keys(message.secrets)).length) {
                    object.secrets = {};
                    for (let j = 0; j < keys2.length; ++j) {
                        if (keys2[j] === "__proto__")
                            $util.makeProp(object.secrets, keys2[j]);
                        object.secrets[keys2[j]] = message.secrets[keys2[j]];
                    }
                }
                if (message.mutable_parameters && (keys2 = $Object.keys(message.mutable_parameters)).length) {
                    object.mutable_parameters = {};
                    for (let j = 0; j < keys2.length; ++j) {
                        if (keys2[j] === "__proto__")
                            $util.makeProp(object.mutable_parameters, keys2[j]);
                        object.mutable_parameters[keys2[j]] = message.mutable_parameters[keys2[j]];
                    }
                }
                return object;
            };

            ValidateVolumeCapabilitiesRequest.prototype.toJSON = function() {
                return ValidateVolumeCapabilitiesRequest.toObject(this, $protobuf.util.toJSONOptions);
            };

            return ValidateVolumeCapabilitiesRequest;
        })();

        v1.ValidateVolumeCapabilitiesResponse = (function() {

            const ValidateVolumeCapabilitiesResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ValidateVolumeCapabilitiesResponse.prototype.confirmed = null;
            ValidateVolumeCapabilitiesResponse.prototype.message = "";

            ValidateVolumeCapabilitiesResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.confirmed != null && $Object.hasOwnProperty.call(message, "confirmed"))
                    $root.csi.v1.ValidateVolumeCapabilitiesResponse.Confirmed.encode(message.confirmed, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.message != null && $Object.hasOwnProperty.call(message, "message") && message.message !== "")
                    writer.uint32(18).string(message.message);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ValidateVolumeCapabilitiesResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.ValidateVolumeCapabilitiesResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.confirmed = $root.csi.v1.ValidateVolumeCapabilitiesResponse.Confirmed.decode(reader, reader.size(), $undefined, _depth + 1, message.confirmed);
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.message = value;
                            else
                                delete message.message;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ValidateVolumeCapabilitiesResponse.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.ValidateVolumeCapabilitiesResponse)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.ValidateVolumeCapabilitiesResponse: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.csi.v1.ValidateVolumeCapabilitiesResponse();
                if (object.confirmed != null) {
                    if (!$util.isObject(object.confirmed))
                        throw $TypeError(".csi.v1.ValidateVolumeCapabilitiesResponse.confirmed: object expected");
                    message.confirmed = $root.csi.v1.ValidateVolumeCapabilitiesResponse.Confirmed.fromObject(object.confirmed, _depth + 1);
                }
                if (object.message != null)
                    if (typeof object.message !== "string" || object.message.length)
                        message.message = $String(object.message);
                return message;
            };

            ValidateVolumeCapabilitiesResponse.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults) {
                    object.confirmed = null;
                    object.message = "";
                }
                if (message.confirmed != null && $Object.hasOwnProperty.call(message, "confirmed"))
                    object.confirmed = $root.csi.v1.ValidateVolumeCapabilitiesResponse.Confirmed.toObject(message.confirmed, options, _depth + 1);
                if (message.message != null && $Object.hasOwnProperty.call(message, "message"))
                    object.message = message.message;
                return object;
            };

            ValidateVolumeCapabilitiesResponse.prototype.toJSON = function() {
                return ValidateVolumeCapabilitiesResponse.toObject(this, $protobuf.util.toJSONOptions);
            };

            ValidateVolumeCapabilitiesResponse.Confirmed = (function() {

                const Confirmed = function (properties) {
                    this.volume_context = {};
                    this.volume_capabilities = [];
                    this.parameters = {};
                    this.mutable_parameters = {};
                    if (properties)
                        for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                            if (properties[keys[i]] != null && keys[i] !== "__proto__")
                                this[keys[i]] = properties[keys[i]];
                };

                Confirmed.prototype.volume_context = $util.emptyObject;
                Confirmed.prototype.volume_capabilities = $util.emptyArray;
                Confirmed.prototype.parameters = $util.emptyObject;
                Confirmed.prototype.mutable_parameters = $util.emptyObject;

                Confirmed.encode = function (message, writer, _depth) {
                    if (!writer)
                        writer = $Writer.create();
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (message.volume_context != null && $Object.hasOwnProperty.call(message, "volume_context"))
                        for (let keys = $Object.keys(message.volume_context), i = 0; i < keys.length; ++i)
                            writer.uint32(10).fork().uint32(10).string(keys[i]).uint32(18).string(message.volume_context[keys[i]]).ldelim();
                    if (message.volume_capabilities != null && message.volume_capabilities.length)
                        for (let i = 0; i < message.volume_capabilities.length; ++i)
                            $root.csi.v1.VolumeCapability.encode(message.volume_capabilities[i], writer.uint32(18).fork(), _depth + 1).ldelim();
                    if (message.parameters != null && $Object.hasOwnProperty.call(message, "parameters"))
                        for (let keys = $Object.keys(message.parameters), i = 0; i < keys.length; ++i)
                            writer.uint32(26).fork().uint32(10).string(keys[i]).uint32(18).string(message.parameters[keys[i]]).ldelim();
                    if (message.mutable_parameters != null && $Object.hasOwnProperty.call(message, "mutable_parameters"))
                        for (let keys = $Object.keys(message.mutable_parameters), i = 0; i < keys.length; ++i)
                            writer.uint32(34).fork().uint32(10).string(keys[i]).uint32(18).string(message.mutable_parameters[keys[i]]).ldelim();
                    if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                        for (let i = 0; i < message.$unknowns.length; ++i)
                            writer.raw(message.$unknowns[i]);
                    return writer;
                };

                Confirmed.decode = function (reader, length, _end, _depth, _target) {
                    if (!(reader instanceof $Reader))
                        reader = $Reader.create(reader);
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    let end, message, key, value;
                    if (length === $undefined)
                        end = reader.len;
                    else {
                        end = reader.pos + length;
                        if (end > reader.len)
                            throw $RangeError("index out of range");
                        length = reader.len;
                        reader.len = end;
                    }
                    message = _target || new $root.csi.v1.ValidateVolumeCapabilitiesResponse.Confirmed();
                    while (reader.pos < end) {
                        let start = reader.pos;
                        let tag = reader.tag();
                        if (tag === _end) {
                            _end = $undefined;
                            break;
                        }
                        let wireType = tag & 7;
                        switch (tag >>>= 3) {
                        case 1: {
                                if (wireType !== 2)
                                    break;
                                if (message.volume_context === $util.emptyObject)
                                    message.volume_context = {};
                                let end2 = reader.size() + reader.pos;
                                if (end2 > reader.len)
                                    throw $RangeError("index out of range");
                                reader.len = end2;
                                key = "";
                                value = "";
                                while (reader.pos < end2) {
                                    let tag2 = reader.tag();
                                    wireType = tag2 & 7;
                                    switch (tag2 >>>= 3) {
                                    case 1:
                                        if (wireType !== 2)
                                            break;
                                        key = reader.stringVerify();
                                        continue;
                                    case 2:
                                        if (wireType !== 2)
                                            break;
                                        value = reader.stringVerify();
                                        continue;
                                    }
                                    reader.skipType(wireType, _depth, tag2);
                                }
                                if (reader.pos !== end2)
                                    throw $RangeError("index out of range");
                                reader.len = end;
                                if (key === "__proto__")
                                    $util.makeProp(message.volume_context, key);
                                message.volume_context[key] = value;
                                continue;
                            }
                        case 2: {
                                if (wireType !== 2)
                                    break;
                                if (!(message.volume_capabilities && message.volume_capabilities.length))
                                    message.volume_capabilities = [];
                                message.volume_capabilities.push($root.csi.v1.VolumeCapability.decode(reader, reader.size(), $undefined, _depth + 1));
                                continue;
                            }
                        case 3: {
                                if (wireType !== 2)
                                    break;
                                if (message.parameters === $util.emptyObject)
                                    message.parameters = {};
                                let end2 = reader.size() + reader.pos;
                                if (end2 > reader.len)
                                    throw $RangeError("index out of range");
                                reader.len = end2;
                                key = "";
                                value = "";
                                while (reader.pos < end2) {
                                    let tag2 = reader.tag();
                                    wireType = tag2 & 7;
                                    switch (tag2 >>>= 3) {
                                    case 1:
                                        if (wireType !== 2)
                                            break;
                                        key = reader.stringVerify();
                                        continue;
                                    case 2:
                                        if (wireType !== 2)
                                            break;
                                        value = reader.stringVerify();
                                        continue;
                                    }
                                    reader.skipType(wireType, _depth, tag2);
                                }
                                if (reader.pos !== end2)
                                    throw $RangeError("index out of range");
                                reader.len = end;
                                if (key === "__proto__")
                                    $util.makeProp(message.parameters, key);
                                message.parameters[key] = value;
                                continue;
                            }
                        case 4: {
                                if (wireType !== 2)
                                    break;
                                if (message.mutable_parameters === $util.emptyObject)
                                    message.mutable_parameters = {};
                                let end2 = reader.size() + reader.pos;
                                if (end2 > reader.len)
                                    throw $RangeError("index out of range");
                                reader.len = end2;
                                key = "";
                                value = "";
                                while (reader.pos < end2) {
                                    let tag2 = reader.tag();
                                    wireType = tag2 & 7;
                                    switch (tag2 >>>= 3) {
                                    case 1:
                                        if (wireType !== 2)
                                            break;
                                        key = reader.stringVerify();
                                        continue;
                                    case 2:
                                        if (wireType !== 2)
                                            break;
                                        value = reader.stringVerify();
                                        continue;
                                    }
                                    reader.skipType(wireType, _depth, tag2);
                                }
                                if (reader.pos !== end2)
                                    throw $RangeError("index out of range");
                                reader.len = end;
                                if (key === "__proto__")
                                    $util.makeProp(message.mutable_parameters, key);
                                message.mutable_parameters[key] = value;
                                continue;
                            }
                        }
                        reader.skipType(wireType, _depth, tag);
                        if (!reader.discardUnknown) {
                            $util.makeProp(message, "$unknowns", false);
                            (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                        }
                    }
                    if (length !== $undefined) {
                        if (reader.pos !== end)
                            throw $RangeError("index out of range");
                        reader.len = length;
                    }
                    if (_end !== $undefined)
                        throw $Error("missing end group");
                    return message;
                };

                Confirmed.fromObject = function (object, _depth) {
                    if (object instanceof $root.csi.v1.ValidateVolumeCapabilitiesResponse.Confirmed)
                        return object;
                    if (!$util.isObject(object))
                        throw $TypeError(".csi.v1.ValidateVolumeCapabilitiesResponse.Confirmed: object expected");
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    let message = new $root.csi.v1.ValidateVolumeCapabilitiesResponse.Confirmed();
                    if (object.volume_context) {
                        if (!$util.isObject(object.volume_context))
                            throw $TypeError(".csi.v1.ValidateVolumeCapabilitiesResponse.Confirmed.volume_context: object expected");
                        message.volume_context = {};
                        for (let keys = $Object.keys(object.volume_context), i = 0; i < keys.length; ++i) {
                            if (keys[i] === "__proto__")
                                $util.makeProp(message.volume_context, keys[i]);
                            message.volume_context[keys[i]] = $String(object.volume_context[keys[i]]);
                        }
                    }
                    if (object.volume_capabilities) {
                        if (!$Array.isArray(object.volume_capabilities))
                            throw $TypeError(".csi.v1.ValidateVolumeCapabilitiesResponse.Confirmed.volume_capabilities: array expected");
                        message.volume_capabilities = $Array(object.volume_capabilities.length);
                        for (let i = 0; i < object.volume_capabilities.length; ++i) {
                            if (!$util.isObject(object.volume_capabilities[i]))
                                throw $TypeError(".csi.v1.ValidateVolumeCapabilitiesResponse.Confirmed.volume_capabilities: object expected");
                            message.volume_capabilities[i] = $root.csi.v1.VolumeCapability.fromObject(object.volume_capabilities[i], _depth + 1);
                        }
                    }
                    if (object.parameters) {
                        if (!$util.isObject(object.parameters))
                            throw $TypeError(".csi.v1.ValidateVolumeCapabilitiesResponse.Confirmed.parameters: object expected");
                        message.parameters = {};
                        for (let keys = $Object.keys(object.parameters), i = 0; i < keys.length; ++i) {
                            if (keys[i] === "__proto__")
                                $util.makeProp(message.parameters, keys[i]);
                            message.parameters[keys[i]] = $String(object.parameters[keys[i]]);
                        }
                    }
                    if (object.mutable_parameters) {
                        if (!$util.isObject(object.mutable_parameters))
                            throw $TypeError(".csi.v1.ValidateVolumeCapabilitiesResponse.Confirmed.mutable_parameters: object expected");
                        message.mutable_parameters = {};
                        for (let keys = $Object.keys(object.mutable_parameters), i = 0; i < keys.length; ++i) {
                            if (keys[i] === "__proto__")
                                $util.makeProp(message.mutable_parameters, keys[i]);
                            message.mutable_parameters[keys[i]] = $String(object.mutable_parameters[keys[i]]);
                        }
                    }
                    return message;
                };

                Confirmed.toObject = function (message, options, _depth) {
                    if (!options)
                        options = {};
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    let object = {};
                    if (options.arrays || options.defaults)
                        object.volume_capabilities = [];
                    if (options.objects || options.defaults) {
                        object.volume_context = {};
                        object.parameters = {};
                        object.mutable_parameters = {};
                    }
                    let keys2;
                    if (message.volume_context && (keys2 = $Object.keys(message.volume_context)).length) {
                        object.volume_context = {};
                        for (let j = 0; j < keys2.length; ++j) {
                            if (keys2[j] === "__proto__")
                                $util.makeProp(object.volume_context, keys2[j]);
                            object.volume_context[keys2[j]] = message.volume_context[keys2[j]];
                        }
                    }
                    if (message.volume_capabilities && message.volume_capabilities.length) {
                        object.volume_capabilities = $Array(message.volume_capabilities.length);
                        for (let j = 0; j < message.volume_capabilities.length; ++j)
                            object.volume_capabilities[j] = $root.csi.v1.VolumeCapability.toObject(message.volume_capabilities[j], options, _depth + 1);
                    }
                    if (message.parameters && (keys2 = $Object.keys(message.parameters)).length) {
                        object.parameters = {};
                        for (let j = 0; j < keys2.length; ++j) {
                            if (keys2[j] === "__proto__")
                                $util.makeProp(object.parameters, keys2[j]);
                            object.parameters[keys2[j]] = message.parameters[keys2[j]];
                        }
                    }
                    if (message.mutable_parameters && (keys2 = $Object.keys(message.mutable_parameters)).length) {
                        object.mutable_parameters = {};
                        for (let j = 0; j < keys2.length; ++j) {
                            if (keys2[j] === "__proto__")
                                $util.makeProp(object.mutable_parameters, keys2[j]);
                            object.mutable_parameters[keys2[j]] = message.mutable_parameters[keys2[j]];
                        }
                    }
                    return object;
                };

                Confirmed.prototype.toJSON = function() {
                    return Confirmed.toObject(this, $protobuf.util.toJSONOptions);
                };

                return Confirmed;
            })();

            return ValidateVolumeCapabilitiesResponse;
        })();

        v1.ControllerGetCapabilitiesRequest = (function() {

            const ControllerGetCapabilitiesRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ControllerGetCapabilitiesRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ControllerGetCapabilitiesRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.ControllerGetCapabilitiesRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    reader.skipType(tag & 7, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ControllerGetCapabilitiesRequest.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.ControllerGetCapabilitiesRequest)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.ControllerGetCapabilitiesRequest: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                return new $root.csi.v1.ControllerGetCapabilitiesRequest();
            };

            ControllerGetCapabilitiesRequest.toObject = function () {
                return {};
            };

            ControllerGetCapabilitiesRequest.prototype.toJSON = function() {
                return ControllerGetCapabilitiesRequest.toObject(this, $protobuf.util.toJSONOptions);
            };

            return ControllerGetCapabilitiesRequest;
        })();

        v1.ControllerGetCapabilitiesResponse = (function() {

            const ControllerGetCapabilitiesResponse = function (properties) {
                this.capabilities = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ControllerGetCapabilitiesResponse.prototype.capabilities = $util.emptyArray;

            ControllerGetCapabilitiesResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.capabilities != null && message.capabilities.length)
                    for (let i = 0; i < message.capabilities.length; ++i)
                        $root.csi.v1.ControllerServiceCapability.encode(message.capabilities[i], writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ControllerGetCapabilitiesResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.ControllerGetCapabilitiesResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.capabilities && message.capabilities.length))
                                message.capabilities = [];
                            message.capabilities.push($root.csi.v1.ControllerServiceCapability.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ControllerGetCapabilitiesResponse.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.ControllerGetCapabilitiesResponse)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.ControllerGetCapabilitiesResponse: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.csi.v1.ControllerGetCapabilitiesResponse();
                if (object.capabilities) {
                    if (!$Array.isArray(object.capabilities))
                        throw $TypeError(".csi.v1.ControllerGetCapabilitiesResponse.capabilities: array expected");
                    message.capabilities = $Array(object.capabilities.length);
                    for (let i = 0; i < object.capabilities.length; ++i) {
                        if (!$util.isObject(object.capabilities[i]))
                            throw $TypeError(".csi.v1.ControllerGetCapabilitiesResponse.capabilities: object expected");
                        message.capabilities[i] = $root.csi.v1.ControllerServiceCapability.fromObject(object.capabilities[i], _depth + 1);
                    }
                }
                return message;
            };

            ControllerGetCapabilitiesResponse.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.arrays || options.defaults)
                    object.capabilities = [];
                if (message.capabilities && message.capabilities.length) {
                    object.capabilities = $Array(message.capabilities.length);
                    for (let j = 0; j < message.capabilities.length; ++j)
                        object.capabilities[j] = $root.csi.v1.ControllerServiceCapability.toObject(message.capabilities[j], options, _depth + 1);
                }
                return object;
            };

            ControllerGetCapabilitiesResponse.prototype.toJSON = function() {
                return ControllerGetCapabilitiesResponse.toObject(this, $protobuf.util.toJSONOptions);
            };

            return ControllerGetCapabilitiesResponse;
        })();

        v1.ControllerServiceCapability = (function() {

            const ControllerServiceCapability = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ControllerServiceCapability.prototype.rpc = null;

            let $oneOfFields;

            $Object.defineProperty(ControllerServiceCapability.prototype, "type", {
                get: $util.oneOfGetter($oneOfFields = ["rpc"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            ControllerServiceCapability.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.rpc != null && $Object.hasOwnProperty.call(message, "rpc"))
                    $root.csi.v1.ControllerServiceCapability.RPC.encode(message.rpc, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ControllerServiceCapability.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.ControllerServiceCapability();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.rpc = $root.csi.v1.ControllerServiceCapability.RPC.decode(reader, reader.size(), $undefined, _depth + 1, message.rpc);
                            message.type = "rpc";
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ControllerServiceCapability.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.ControllerServiceCapability)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.ControllerServiceCapability: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.csi.v1.ControllerServiceCapability();
                if (object.rpc != null) {
                    if (!$util.isObject(object.rpc))
                        throw $TypeError(".csi.v1.ControllerServiceCapability.rpc: object expected");
                    message.rpc = $root.csi.v1.ControllerServiceCapability.RPC.fromObject(object.rpc, _depth + 1);
                }
                return message;
            };

            ControllerServiceCapability.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (message.rpc != null && $Object.hasOwnProperty.call(message, "rpc")) {
                    object.rpc = $root.csi.v1.ControllerServiceCapability.RPC.toObject(message.rpc, options, _depth + 1);
                    if (options.oneofs)
                        object.type = "rpc";
                }
                return object;
            };

            ControllerServiceCapability.prototype.toJSON = function() {
                return ControllerServiceCapability.toObject(this, $protobuf.util.toJSONOptions);
            };

            ControllerServiceCapability.RPC = (function() {

                const RPC = function (properties) {
                    if (properties)
                        for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                            if (properties[keys[i]] != null && keys[i] !== "__proto__")
                                this[keys[i]] = properties[keys[i]];
                };

                RPC.prototype.type = 0;

                RPC.encode = function (message, writer, _depth) {
                    if (!writer)
                        writer = $Writer.create();
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (message.type != null && $Object.hasOwnProperty.call(message, "type") && message.type !== 0)
                        writer.uint32(8).int32(message.type);
                    if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                        for (let i = 0; i < message.$unknowns.length; ++i)
                            writer.raw(message.$unknowns[i]);
                    return writer;
                };

                RPC.decode = function (reader, length, _end, _depth, _target) {
                    if (!(reader instanceof $Reader))
                        reader = $Reader.create(reader);
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    let end, message, value;
                    if (length === $undefined)
                        end = reader.len;
                    else {
                        end = reader.pos + length;
                        if (end > reader.len)
                            throw $RangeError("index out of range");
                        length = reader.len;
                        reader.len = end;
                    }
                    message = _target || new $root.csi.v1.ControllerServiceCapability.RPC();
                    while (reader.pos < end) {
                        let start = reader.pos;
                        let tag = reader.tag();
                        if (tag === _end) {
                            _end = $undefined;
                            break;
                        }
                        let wireType = tag & 7;
                        switch (tag >>>= 3) {
                        case 1: {
                                if (wireType !== 0)
                                    break;
                                if (value = reader.int32())
                                    message.type = value;
                                else
                                    delete message.type;
                                continue;
                            }
                        }
                        reader.skipType(wireType, _depth, tag);
                        if (!reader.discardUnknown) {
                            $util.makeProp(message, "$unknowns", false);
                            (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                        }
                    }
                    if (length !== $undefined) {
                        if (reader.pos !== end)
                            throw $RangeError("index out of range");
                        reader.len = length;
                    }
                    if (_end !== $undefined)
                        throw $Error("missing end group");
                    return message;
                };

                RPC.fromObject = function (object, _depth) {
                    if (object instanceof $root.csi.v1.ControllerServiceCapability.RPC)
                        return object;
                    if (!$util.isObject(object))
                        throw $TypeError(".csi.v1.ControllerServiceCapability.RPC: object expected");
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    let message = new $root.csi.v1.ControllerServiceCapability.RPC();
                    if (object.type !== 0 && (typeof object.type !== "string" || $root.csi.v1.ControllerServiceCapability.RPC.Type[object.type] !== 0))
                        switch (object.type) {
                        case "UNKNOWN":
                        case 0:
                            message.type = 0;
                            break;
                        case "CREATE_DELETE_VOLUME":
                        case 1:
                            message.type = 1;
                            break;
                        case "PUBLISH_UNPUBLISH_VOLUME":
                        case 2:
                            message.type = 2;
                            break;
                        case "LIST_VOLUMES":
                        case 3:
                            message.type = 3;
                            break;
                        case "GET_CAPACITY":
                        case 4:
                            message.type = 4;
                            break;
                        case "CREATE_DELETE_SNAPSHOT":
                        case 5:
                            message.type = 5;
                            break;
                        case "LIST_SNAPSHOTS":
                        case 6:
                            message.type = 6;
                            break;
                        case "CLONE_VOLUME":
                        case 7:
                            message.type = 7;
                            break;
                        case "PUBLISH_READONLY":
                        case 8:
                            message.type = 8;
                            break;
                        case "EXPAND_VOLUME":
                        case 9:
                            message.type = 9;
                            break;
                        case "LIST_VOLUMES_PUBLISHED_NODES":
                        case 10:
                            message.type = 10;
                            break;
                        case "VOLUME_CONDITION":
                        case 11:
                            message.type = 11;
                            break;
                        case "GET_VOLUME":
                        case 12:
                            message.type = 12;
                            break;
                        case "SINGLE_NODE_MULTI_WRITER":
                        case 13:
                            message.type = 13;
                            break;
                        case "MODIFY_VOLUME":
                        case 14:
                            message.type = 14;
                            break;
                        case "GET_SNAPSHOT":
                        case 15:
                            message.type = 15;
                            break;
                        default:
                            if (typeof object.type === "number" && (object.type | 0) === object.type)
                                message.type = object.type;
                        }
                    return message;
                };

                RPC.toObject = function (message, options, _depth) {
                    if (!options)
                        options = {};
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    let object = {};
                    if (options.defaults)
                        object.type = options.enums === $String ? "UNKNOWN" : 0;
                    if (message.type != null && $Object.hasOwnProperty.call(message, "type"))
                        object.type = options.enums === $String ? $root.csi.v1.ControllerServiceCapability.RPC.Type[message.type] === $undefined ? message.type : $root.csi.v1.ControllerServiceCapability.RPC.Type[message.type] : message.type;
                    return object;
                };

                RPC.prototype.toJSON = function() {
                    return RPC.toObject(this, $protobuf.util.toJSONOptions);
                };

                RPC.Type = (function() {
                    const valuesById = $Object.create(null), values = $Object.create(valuesById);
                    values[valuesById[0] = "UNKNOWN"] = 0;
                    values[valuesById[1] = "CREATE_DELETE_VOLUME"] = 1;
                    values[valuesById[2] = "PUBLISH_UNPUBLISH_VOLUME"] = 2;
                    values[valuesById[3] = "LIST_VOLUMES"] = 3;
                    values[valuesById[4] = "GET_CAPACITY"] = 4;
                    values[valuesById[5] = "CREATE_DELETE_SNAPSHOT"] = 5;
                    values[valuesById[6] = "LIST_SNAPSHOTS"] = 6;
                    values[valuesById[7] = "CLONE_VOLUME"] = 7;
                    values[valuesById[8] = "PUBLISH_READONLY"] = 8;
                    values[valuesById[9] = "EXPAND_VOLUME"] = 9;
                    values[valuesById[10] = "LIST_VOLUMES_PUBLISHED_NODES"] = 10;
                    values[valuesById[11] = "VOLUME_CONDITION"] = 11;
                    values[valuesById[12] = "GET_VOLUME"] = 12;
                    values[valuesById[13] = "SINGLE_NODE_MULTI_WRITER"] = 13;
                    values[valuesById[14] = "MODIFY_VOLUME"] = 14;
                    values[valuesById[15] = "GET_SNAPSHOT"] = 15;
                    return values;
                })();

                return RPC;
            })();

            return ControllerServiceCapability;
        })();

        v1.NodePublishVolumeRequest = (function() {

            const NodePublishVolumeRequest = function (properties) {
                this.publish_context = {};
                this.secrets = {};
                this.volume_context = {};
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            NodePublishVolumeRequest.prototype.volume_id = "";
            NodePublishVolumeRequest.prototype.publish_context = $util.emptyObject;
            NodePublishVolumeRequest.prototype.staging_target_path = "";
            NodePublishVolumeRequest.prototype.target_path = "";
            NodePublishVolumeRequest.prototype.volume_capability = null;
            NodePublishVolumeRequest.prototype.readonly = false;
            NodePublishVolumeRequest.prototype.secrets = $util.emptyObject;
            NodePublishVolumeRequest.prototype.volume_context = $util.emptyObject;

            NodePublishVolumeRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.volume_id != null && $Object.hasOwnProperty.call(message, "volume_id") && message.volume_id !== "")
                    writer.uint32(10).string(message.volume_id);
                if (message.publish_context != null && $Object.hasOwnProperty.call(message, "publish_context"))
                    for (let keys = $Object.keys(message.publish_context), i = 0; i < keys.length; ++i)
                        writer.uint32(18).fork().uint32(10).string(keys[i]).uint32(18).string(message.publish_context[keys[i]]).ldelim();
                if (message.staging_target_path != null && $Object.hasOwnProperty.call(message, "staging_target_path") && message.staging_target_path !== "")
                    writer.uint32(26).string(message.staging_target_path);
                if (message.target_path != null && $Object.hasOwnProperty.call(message, "target_path") && message.target_path !== "")
                    writer.uint32(34).string(message.target_path);
                if (message.volume_capability != null && $Object.hasOwnProperty.call(message, "volume_capability"))
                    $root.csi.v1.VolumeCapability.encode(message.volume_capability, writer.uint32(42).fork(), _depth + 1).ldelim();
                if (message.readonly != null && $Object.hasOwnProperty.call(message, "readonly") && message.readonly !== false)
                    writer.uint32(48).bool(message.readonly);
                if (message.secrets != null && $Object.hasOwnProperty.call(message, "secrets"))
                    for (let keys = $Object.keys(message.secrets), i = 0; i < keys.length; ++i)
                        writer.uint32(58).fork().uint32(10).string(keys[i]).uint32(18).string(message.secrets[keys[i]]).ldelim();
                if (message.volume_context != null && $Object.hasOwnProperty.call(message, "volume_context"))
                    for (let keys = $Object.keys(message.volume_context), i = 0; i < keys.length; ++i)
                        writer.uint32(66).fork().uint32(10).string(keys[i]).uint32(18).string(message.volume_context[keys[i]]).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            NodePublishVolumeRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, key, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.NodePublishVolumeRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.volume_id = value;
                            else
                                delete message.volume_id;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if (message.publish_context === $util.emptyObject)
                                message.publish_context = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = "";
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = reader.stringVerify();
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.publish_context, key);
                            message.publish_context[key] = value;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.staging_target_path = value;
                            else
                                delete message.staging_target_path;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.target_path = value;
                            else
                                delete message.target_path;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            message.volume_capability = $root.csi.v1.VolumeCapability.decode(reader, reader.size(), $undefined, _depth + 1, message.volume_capability);
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.readonly = value;
                            else
                                delete message.readonly;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 2)
                                break;
                            if (message.secrets === $util.emptyObject)
                                message.secrets = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = "";
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = reader.stringVerify();
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.secrets, key);
                            message.secrets[key] = value;
                            continue;
                        }
                    case 8: {
                            if (wireType !== 2)
                                break;
                            if (message.volume_context === $util.emptyObject)
                                message.volume_context = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = "";
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = reader.stringVerify();
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.volume_context, key);
                            message.volume_context[key] = value;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            NodePublishVolumeRequest.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.NodePublishVolumeRequest)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.NodePublishVolumeRequest: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.csi.v1.NodePublishVolumeRequest();
                if (object.volume_id != null)
                    if (typeof object.volume_id !== "string" || object.volume_id.length)
                        message.volume_id = $String(object.volume_id);
                if (object.publish_context) {
                    if (!$util.isObject(object.publish_context))
                        throw $TypeError(".csi.v1.NodePublishVolumeRequest.publish_context: object expected");
                    message.publish_context = {};
                    for (let keys = $Object.keys(object.publish_context), i = 0; i < keys.length; ++i) {
                        if (keys[i] === "__proto__")
                            $util.makeProp(message.publish_context, keys[i]);
                        message.publish_context[keys[i]] = $String(object.publish_context[keys[i]]);
                    }
                }
                if (object.staging_target_path != null)
                    if (typeof object.staging_target_path !== "string" || object.staging_target_path.length)
                        message.staging_target_path = $String(object.staging_target_path);
                if (object.target_path != null)
                    if (typeof object.target_path !== "string" || object.target_path.length)
                        message.target_path = $String(object.target_path);
                if (object.volume_capability != null) {
                    if (!$util.isObject(object.volume_capability))
                        throw $TypeError(".csi.v1.NodePublishVolumeRequest.volume_capability: object expected");
                    message.volume_capability = $root.csi.v1.VolumeCapability.fromObject(object.volume_capability, _depth + 1);
                }
                if (object.readonly != null)
                    if (object.readonly)
                        message.readonly = $Boolean(object.readonly);
                if (object.secrets) {
                    if (!$util.isObject(object.secrets))
                        throw $TypeError(".csi.v1.NodePublishVolumeRequest.secrets: object expected");
                    message.secrets = {};
                    for (let keys = $Object.keys(object.secrets), i = 0; i < keys.length; ++i) {
                        if (keys[i] === "__proto__")
                            $util.makeProp(message.secrets, keys[i]);
                        message.secrets[keys[i]] = $String(object.secrets[keys[i]]);
                    }
                }
                if (object.volume_context) {
                    if (!$util.isObject(object.volume_context))
                        throw $TypeError(".csi.v1.NodePublishVolumeRequest.volume_context: object expected");
                    message.volume_context = {};
                    for (let keys = $Object.keys(object.volume_context), i = 0; i < keys.length; ++i) {
                        if (keys[i] === "__proto__")
                            $util.makeProp(message.volume_context, keys[i]);
                        message.volume_context[keys[i]] = $String(object.volume_context[keys[i]]);
                    }
                }
                return message;
            };

            NodePublishVolumeRequest.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.objects || options.defaults) {
                    object.publish_context = {};
                    object.secrets = {};
                    object.volume_context = {};
                }
                if (options.defaults) {
                    object.volume_id = "";
                    object.staging_target_path = "";
                    object.target_path = "";
                    object.volume_capability = null;
                    object.readonly = false;
                }
                if (message.volume_id != null && $Object.hasOwnProperty.call(message, "volume_id"))
                    object.volume_id = message.volume_id;
                let keys2;
                if (message.publish_context && (keys2 = $Object.keys(message.publish_context)).length) {
                    object.publish_context = {};
                    for (let j = 0; j < keys2.length; ++j) {
                        if (keys2[j] === "__proto__")
                            $util.makeProp(object.publish_context, keys2[j]);
                        object.publish_context[keys2[j]] = message.publish_context[keys2[j]];
                    }
                }
                if (message.staging_target_path != null && $Object.hasOwnProperty.call(message, "staging_target_path"))
                    object.staging_target_path = message.staging_target_path;
                if (message.target_path != null && $Object.hasOwnProperty.call(message, "target_path"))
                    object.target_path = message.target_path;
                if (message.volume_capability != null && $Object.hasOwnProperty.call(message, "volume_capability"))
                    object.volume_capability = $root.csi.v1.VolumeCapability.toObject(message.volume_capability, options, _depth + 1);
                if (message.readonly != null && $Object.hasOwnProperty.call(message, "readonly"))
                    object.readonly = message.readonly;
                if (message.secrets && (keys2 = $Object.keys(message.secrets)).length) {
                    object.secrets = {};
                    for (let j = 0; j < keys2.length; ++j) {
                        if (keys2[j] === "__proto__")
                            $util.makeProp(object.secrets, keys2[j]);
                        object.secrets[keys2[j]] = message.secrets[keys2[j]];
                    }
                }
                if (message.volume_context && (keys2 = $Object.keys(message.volume_context)).length) {
                    object.volume_context = {};
                    for (let j = 0; j < keys2.length; ++j) {
                        if (keys2[j] === "__proto__")
                            $util.makeProp(object.volume_context, keys2[j]);
                        object.volume_context[keys2[j]] = message.volume_context[keys2[j]];
                    }
                }
                return object;
            };

            NodePublishVolumeRequest.prototype.toJSON = function() {
                return NodePublishVolumeRequest.toObject(this, $protobuf.util.toJSONOptions);
            };

            return NodePublishVolumeRequest;
        })();

        v1.NodePublishVolumeResponse = (function() {

            const NodePublishVolumeResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            NodePublishVolumeResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            NodePublishVolumeResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.NodePublishVolumeResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    reader.skipType(tag & 7, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            NodePublishVolumeResponse.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.NodePublishVolumeResponse)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.NodePublishVolumeResponse: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                return new $root.csi.v1.NodePublishVolumeResponse();
            };

            NodePublishVolumeResponse.toObject = function () {
                return {};
            };

            NodePublishVolumeResponse.prototype.toJSON = function() {
                return NodePublishVolumeResponse.toObject(this, $protobuf.util.toJSONOptions);
            };

            return NodePublishVolumeResponse;
        })();

        v1.NodeUnpublishVolumeRequest = (function() {

            const NodeUnpublishVolumeRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            NodeUnpublishVolumeRequest.prototype.volume_id = "";
            NodeUnpublishVolumeRequest.prototype.target_path = "";

            NodeUnpublishVolumeRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.volume_id != null && $Object.hasOwnProperty.call(message, "volume_id") && message.volume_id !== "")
                    writer.uint32(10).string(message.volume_id);
                if (message.target_path != null && $Object.hasOwnProperty.call(message, "target_path") && message.target_path !== "")
                    writer.uint32(18).string(message.target_path);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            NodeUnpublishVolumeRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.NodeUnpublishVolumeRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.volume_id = value;
                            else
                                delete message.volume_id;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.target_path = value;
                            else
                                delete message.target_path;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            NodeUnpublishVolumeRequest.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.NodeUnpublishVolumeRequest)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.NodeUnpublishVolumeRequest: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.csi.v1.NodeUnpublishVolumeRequest();
                if (object.volume_id != null)
                    if (typeof object.volume_id !== "string" || object.volume_id.length)
                        message.volume_id = $String(object.volume_id);
                if (object.target_path != null)
                    if (typeof object.target_path !== "string" || object.target_path.length)
                        message.target_path = $String(object.target_path);
                return message;
            };

            NodeUnpublishVolumeRequest.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults) {
                    object.volume_id = "";
                    object.target_path = "";
                }
                if (message.volume_id != null && $Object.hasOwnProperty.call(message, "volume_id"))
                    object.volume_id = message.volume_id;
                if (message.target_path != null && $Object.hasOwnProperty.call(message, "target_path"))
                    object.target_path = message.target_path;
                return object;
            };

            NodeUnpublishVolumeRequest.prototype.toJSON = function() {
                return NodeUnpublishVolumeRequest.toObject(this, $protobuf.util.toJSONOptions);
            };

            return NodeUnpublishVolumeRequest;
        })();

        v1.NodeUnpublishVolumeResponse = (function() {

            const NodeUnpublishVolumeResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            NodeUnpublishVolumeResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            NodeUnpublishVolumeResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.NodeUnpublishVolumeResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    reader.skipType(tag & 7, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            NodeUnpublishVolumeResponse.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.NodeUnpublishVolumeResponse)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.NodeUnpublishVolumeResponse: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                return new $root.csi.v1.NodeUnpublishVolumeResponse();
            };

            NodeUnpublishVolumeResponse.toObject = function () {
                return {};
            };

            NodeUnpublishVolumeResponse.prototype.toJSON = function() {
                return NodeUnpublishVolumeResponse.toObject(this, $protobuf.util.toJSONOptions);
            };

            return NodeUnpublishVolumeResponse;
        })();

        v1.NodeGetInfoRequest = (function() {

            const NodeGetInfoRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            NodeGetInfoRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            NodeGetInfoRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.NodeGetInfoRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    reader.skipType(tag & 7, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            NodeGetInfoRequest.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.NodeGetInfoRequest)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.NodeGetInfoRequest: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                return new $root.csi.v1.NodeGetInfoRequest();
            };

            NodeGetInfoRequest.toObject = function () {
                return {};
            };

            NodeGetInfoRequest.prototype.toJSON = function() {
                return NodeGetInfoRequest.toObject(this, $protobuf.util.toJSONOptions);
            };

            return NodeGetInfoRequest;
        })();

        v1.NodeGetInfoResponse = (function() {

            const NodeGetInfoResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            NodeGetInfoResponse.prototype.node_id = "";
            NodeGetInfoResponse.prototype.max_volumes_per_node = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            NodeGetInfoResponse.prototype.accessible_topology = null;

            NodeGetInfoResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.node_id != null && $Object.hasOwnProperty.call(message, "node_id") && message.node_id !== "")
                    writer.uint32(10).string(message.node_id);
                if (message.max_volumes_per_node != null && $Object.hasOwnProperty.call(message, "max_volumes_per_node") && (typeof message.max_volumes_per_node === "object" ? message.max_volumes_per_node.low || message.max_volumes_per_node.high : message.max_volumes_per_node !== 0))
                    writer.uint32(16).int64(message.max_volumes_per_node);
                if (message.accessible_topology != null && $Object.hasOwnProperty.call(message, "accessible_topology"))
                    $root.csi.v1.Topology.encode(message.accessible_topology, writer.uint32(26).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            NodeGetInfoResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.NodeGetInfoResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.node_id = value;
                            else
                                delete message.node_id;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.max_volumes_per_node = value;
                            else
                                delete message.max_volumes_per_node;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            message.accessible_topology = $root.csi.v1.Topology.decode(reader, reader.size(), $undefined, _depth + 1, message.accessible_topology);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            NodeGetInfoResponse.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.NodeGetInfoResponse)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.NodeGetInfoResponse: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.csi.v1.NodeGetInfoResponse();
                if (object.node_id != null)
                    if (typeof object.node_id !== "string" || object.node_id.length)
                        message.node_id = $String(object.node_id);
                if (object.max_volumes_per_node != null)
                    if (typeof object.max_volumes_per_node === "object" ? object.max_volumes_per_node.low || object.max_volumes_per_node.high : $Number(object.max_volumes_per_node) !== 0)
                        if ($util.Long)
                            message.max_volumes_per_node = $util.Long.fromValue(object.max_volumes_per_node, false);
                        else if (typeof object.max_volumes_per_node === "string")
                            message.max_volumes_per_node = $parseInt(object.max_volumes_per_node, 10);
                        else if (typeof object.max_volumes_per_node === "number")
                            message.max_volumes_per_node = object.max_volumes_per_node;
                        else if (typeof object.max_volumes_per_node === "object")
                            message.max_volumes_per_node = new $util.LongBits(object.max_volumes_per_node.low >>> 0, object.max_volumes_per_node.high >>> 0).toNumber();
                if (object.accessible_topology != null) {
                    if (!$util.isObject(object.accessible_topology))
                        throw $TypeError(".csi.v1.NodeGetInfoResponse.accessible_topology: object expected");
                    message.accessible_topology = $root.csi.v1.Topology.fromObject(object.accessible_topology, _depth + 1);
                }
                return message;
            };

            NodeGetInfoResponse.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults) {
                    object.node_id = "";
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, false);
                        object.max_volumes_per_node = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.max_volumes_per_node = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                    object.accessible_topology = null;
                }
                if (message.node_id != null && $Object.hasOwnProperty.call(message, "node_id"))
                    object.node_id = message.node_id;
                if (message.max_volumes_per_node != null && $Object.hasOwnProperty.call(message, "max_volumes_per_node"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.max_volumes_per_node = typeof message.max_volumes_per_node === "number" ? $BigInt(message.max_volumes_per_node) : $util.Long.fromBits(message.max_volumes_per_node.low >>> 0, message.max_volumes_per_node.high >>> 0, false).toBigInt();
                    else if (typeof message.max_volumes_per_node === "number")
                        object.max_volumes_per_node = options.longs === $String ? $String(message.max_volumes_per_node) : message.max_volumes_per_node;
                    else
                        object.max_volumes_per_node = options.longs === $String ? $util.Long.prototype.toString.call(message.max_volumes_per_node) : options.longs === $Number ? new $util.LongBits(message.max_volumes_per_node.low >>> 0, message.max_volumes_per_node.high >>> 0).toNumber() : message.max_volumes_per_node;
                if (message.accessible_topology != null && $Object.hasOwnProperty.call(message, "accessible_topology"))
                    object.accessible_topology = $root.csi.v1.Topology.toObject(message.accessible_topology, options, _depth + 1);
                return object;
            };

            NodeGetInfoResponse.prototype.toJSON = function() {
                return NodeGetInfoResponse.toObject(this, $protobuf.util.toJSONOptions);
            };

            return NodeGetInfoResponse;
        })();

        v1.NodeGetCapabilitiesRequest = (function() {

            const NodeGetCapabilitiesRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            NodeGetCapabilitiesRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            NodeGetCapabilitiesRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.NodeGetCapabilitiesRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    reader.skipType(tag & 7, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            NodeGetCapabilitiesRequest.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.NodeGetCapabilitiesRequest)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.NodeGetCapabilitiesRequest: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                return new $root.csi.v1.NodeGetCapabilitiesRequest();
            };

            NodeGetCapabilitiesRequest.toObject = function () {
                return {};
            };

            NodeGetCapabilitiesRequest.prototype.toJSON = function() {
                return NodeGetCapabilitiesRequest.toObject(this, $protobuf.util.toJSONOptions);
            };

            return NodeGetCapabilitiesRequest;
        })();

        v1.NodeGetCapabilitiesResponse = (function() {

            const NodeGetCapabilitiesResponse = function (properties) {
                this.capabilities = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            NodeGetCapabilitiesResponse.prototype.capabilities = $util.emptyArray;

            NodeGetCapabilitiesResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.capabilities != null && message.capabilities.length)
                    for (let i = 0; i < message.capabilities.length; ++i)
                        $root.csi.v1.NodeServiceCapability.encode(message.capabilities[i], writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            NodeGetCapabilitiesResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.NodeGetCapabilitiesResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.capabilities && message.capabilities.length))
                                message.capabilities = [];
                            message.capabilities.push($root.csi.v1.NodeServiceCapability.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            NodeGetCapabilitiesResponse.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.NodeGetCapabilitiesResponse)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.NodeGetCapabilitiesResponse: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.csi.v1.NodeGetCapabilitiesResponse();
                if (object.capabilities) {
                    if (!$Array.isArray(object.capabilities))
                        throw $TypeError(".csi.v1.NodeGetCapabilitiesResponse.capabilities: array expected");
                    message.capabilities = $Array(object.capabilities.length);
                    for (let i = 0; i < object.capabilities.length; ++i) {
                        if (!$util.isObject(object.capabilities[i]))
                            throw $TypeError(".csi.v1.NodeGetCapabilitiesResponse.capabilities: object expected");
                        message.capabilities[i] = $root.csi.v1.NodeServiceCapability.fromObject(object.capabilities[i], _depth + 1);
                    }
                }
                return message;
            };

            NodeGetCapabilitiesResponse.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.arrays || options.defaults)
                    object.capabilities = [];
                if (message.capabilities && message.capabilities.length) {
                    object.capabilities = $Array(message.capabilities.length);
                    for (let j = 0; j < message.capabilities.length; ++j)
                        object.capabilities[j] = $root.csi.v1.NodeServiceCapability.toObject(message.capabilities[j], options, _depth + 1);
                }
                return object;
            };

            NodeGetCapabilitiesResponse.prototype.toJSON = function() {
                return NodeGetCapabilitiesResponse.toObject(this, $protobuf.util.toJSONOptions);
            };

            return NodeGetCapabilitiesResponse;
        })();

        v1.NodeServiceCapability = (function() {

            const NodeServiceCapability = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            NodeServiceCapability.prototype.rpc = null;

            let $oneOfFields;

            $Object.defineProperty(NodeServiceCapability.prototype, "type", {
                get: $util.oneOfGetter($oneOfFields = ["rpc"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            NodeServiceCapability.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.rpc != null && $Object.hasOwnProperty.call(message, "rpc"))
                    $root.csi.v1.NodeServiceCapability.RPC.encode(message.rpc, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            NodeServiceCapability.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.csi.v1.NodeServiceCapability();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.rpc = $root.csi.v1.NodeServiceCapability.RPC.decode(reader, reader.size(), $undefined, _depth + 1, message.rpc);
                            message.type = "rpc";
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            NodeServiceCapability.fromObject = function (object, _depth) {
                if (object instanceof $root.csi.v1.NodeServiceCapability)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".csi.v1.NodeServiceCapability: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.csi.v1.NodeServiceCapability();
                if (object.rpc != null) {
                    if (!$util.isObject(object.rpc))
                        throw $TypeError(".csi.v1.NodeServiceCapability.rpc: object expected");
                    message.rpc = $root.csi.v1.NodeServiceCapability.RPC.fromObject(object.rpc, _depth + 1);
                }
                return message;
            };

            NodeServiceCapability.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (message.rpc != null && $Object.hasOwnProperty.call(message, "rpc")) {
                    object.rpc = $root.csi.v1.NodeServiceCapability.RPC.toObject(message.rpc, options, _depth + 1);
                    if (options.oneofs)
                        object.type = "rpc";
                }
                return object;
            };

            NodeServiceCapability.prototype.toJSON = function() {
                return NodeServiceCapability.toObject(this, $protobuf.util.toJSONOptions);
            };

            NodeServiceCapability.RPC = (function() {

                const RPC = function (properties) {
                    if (properties)
                        for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                            if (properties[keys[i]] != null && keys[i] !== "__proto__")
                                this[keys[i]] = properties[keys[i]];
                };

                RPC.prototype.type = 0;

                RPC.encode = function (message, writer, _depth) {
                    if (!writer)
                        writer = $Writer.create();
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (message.type != null && $Object.hasOwnProperty.call(message, "type") && message.type !== 0)
                        writer.uint32(8).int32(message.type);
                    if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                        for (let i = 0; i < message.$unknowns.length; ++i)
                            writer.raw(message.$unknowns[i]);
                    return writer;
                };

                RPC.decode = function (reader, length, _end, _depth, _target) {
                    if (!(reader instanceof $Reader))
                        reader = $Reader.create(reader);
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    let end, message, value;
                    if (length === $undefined)
                        end = reader.len;
                    else {
                        end = reader.pos + length;
                        if (end > reader.len)
                            throw $RangeError("index out of range");
                        length = reader.len;
                        reader.len = end;
                    }
                    message = _target || new $root.csi.v1.NodeServiceCapability.RPC();
                    while (reader.pos < end) {
                        let start = reader.pos;
                        let tag = reader.tag();
                        if (tag === _end) {
                            _end = $undefined;
                            break;
                        }
                        let wireType = tag & 7;
                        switch (tag >>>= 3) {
                        case 1: {
                                if (wireType !== 0)
                                    break;
                                if (value = reader.int32())
                                    message.type = value;
                                else
                                    delete message.type;
                                continue;
                            }
                        }
                        reader.skipType(wireType, _depth, tag);
                        if (!reader.discardUnknown) {
                            $util.makeProp(message, "$unknowns", false);
                            (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                        }
                    }
                    if (length !== $undefined) {
                        if (reader.pos !== end)
                            throw $RangeError("index out of range");
                        reader.len = length;
                    }
                    if (_end !== $undefined)
                        throw $Error("missing end group");
                    return message;
                };

                RPC.fromObject = function (object, _depth) {
                    if (object instanceof $root.csi.v1.NodeServiceCapability.RPC)
                        return object;
                    if (!$util.isObject(object))
                        throw $TypeError(".csi.v1.NodeServiceCapability.RPC: object expected");
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    let message = new $root.csi.v1.NodeServiceCapability.RPC();
                    if (object.type !== 0 && (typeof object.type !== "string" || $root.csi.v1.NodeServiceCapability.RPC.Type[object.type] !== 0))
                        switch (object.type) {
                        case "UNKNOWN":
                        case 0:
                            message.type = 0;
                            break;
                        case "STAGE_UNSTAGE_VOLUME":
                        case 1:
                            message.type = 1;
                            break;
                        case "GET_VOLUME_STATS":
                        case 2:
                            message.type = 2;
                            break;
                        case "EXPAND_VOLUME":
                        case 3:
                            message.type = 3;
                            break;
                        case "VOLUME_CONDITION":
                        case 4:
                            message.type = 4;
                            break;
                        case "SINGLE_NODE_MULTI_WRITER":
                        case 5:
                            message.type = 5;
                            break;
                        case "VOLUME_MOUNT_GROUP":
                        case 6:
                            message.type = 6;
                            break;
                        default:
                            if (typeof object.type === "number" && (object.type | 0) === object.type)
                                message.type = object.type;
                        }
                    return message;
                };

                RPC.toObject = function (message, options, _depth) {
                    if (!options)
                        options = {};
                    if (_depth === $undefined)
                        _depth = 0;
                    if (_depth > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    let object = {};
                    if (options.defaults)
                        object.type = options.enums === $String ? "UNKNOWN" : 0;
                    if (message.type != null && $Object.hasOwnProperty.call(message, "type"))
                        object.type = options.enums === $String ? $root.csi.v1.NodeServiceCapability.RPC.Type[message.type] === $undefined ? message.type : $root.csi.v1.NodeServiceCapability.RPC.Type[message.type] : message.type;
                    return object;
                };

                RPC.prototype.toJSON = function() {
                    return RPC.toObject(this, $protobuf.util.toJSONOptions);
                };

                RPC.Type = (function() {
                    const valuesById = $Object.create(null), values = $Object.create(valuesById);
                    values[valuesById[0] = "UNKNOWN"] = 0;
                    values[valuesById[1] = "STAGE_UNSTAGE_VOLUME"] = 1;
                    values[valuesById[2] = "GET_VOLUME_STATS"] = 2;
                    values[valuesById[3] = "EXPAND_VOLUME"] = 3;
                    values[valuesById[4] = "VOLUME_CONDITION"] = 4;
                    values[valuesById[5] = "SINGLE_NODE_MULTI_WRITER"] = 5;
                    values[valuesById[6] = "VOLUME_MOUNT_GROUP"] = 6;
                    return values;
                })();

                return RPC;
            })();

            return NodeServiceCapability;
        })();

        return v1;
    })();

    return csi;
})();

export const google = $root.google = (() => {

    const google = {};

    google.protobuf = (function() {

        const protobuf = {};

        protobuf.DoubleValue = (function() {

            const DoubleValue = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            DoubleValue.prototype.value = 0;

            DoubleValue.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.value != null && $Object.hasOwnProperty.call(message, "value") && !$Object.is(message.value, 0))
                    writer.uint32(9).double(message.value);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            DoubleValue.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.google.protobuf.DoubleValue();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 1)
                                break;
                            if (!$Object.is(value = reader.double(), 0))
                                message.value = value;
                            else
                                delete message.value;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            DoubleValue.fromObject = function (object, _depth) {
                if (object instanceof $root.google.protobuf.DoubleValue)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".google.protobuf.DoubleValue: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.google.protobuf.DoubleValue();
                if (object.value != null)
                    if (!$Object.is($Number(object.value), 0))
                        message.value = $Number(object.value);
                return message;
            };

            DoubleValue.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults)
                    object.value = 0;
                if (message.value != null && $Object.hasOwnProperty.call(message, "value"))
                    object.value = options.json && !$isFinite(message.value) ? $String(message.value) : message.value;
                return object;
            };

            DoubleValue.prototype.toJSON = function() {
                return DoubleValue.toObject(this, $protobuf.util.toJSONOptions);
            };

            return DoubleValue;
        })();

        protobuf.FloatValue = (function() {

            const FloatValue = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            FloatValue.prototype.value = 0;

            FloatValue.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.value != null && $Object.hasOwnProperty.call(message, "value") && !$Object.is(message.value, 0))
                    writer.uint32(13).float(message.value);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            FloatValue.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.google.protobuf.FloatValue();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 5)
                                break;
                            if (!$Object.is(value = reader.float(), 0))
                                message.value = value;
                            else
                                delete message.value;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            FloatValue.fromObject = function (object, _depth) {
                if (object instanceof $root.google.protobuf.FloatValue)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".google.protobuf.FloatValue: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.google.protobuf.FloatValue();
                if (object.value != null)
                    if (!$Object.is($Number(object.value), 0))
                        message.value = $Number(object.value);
                return message;
            };

            FloatValue.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults)
                    object.value = 0;
                if (message.value != null && $Object.hasOwnProperty.call(message, "value"))
                    object.value = options.json && !$isFinite(message.value) ? $String(message.value) : message.value;
                return object;
            };

            FloatValue.prototype.toJSON = function() {
                return FloatValue.toObject(this, $protobuf.util.toJSONOptions);
            };

            return FloatValue;
        })();

        protobuf.Int64Value = (function() {

            const Int64Value = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            Int64Value.prototype.value = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            Int64Value.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.value != null && $Object.hasOwnProperty.call(message, "value") && (typeof message.value === "object" ? message.value.low || message.value.high : message.value !== 0))
                    writer.uint32(8).int64(message.value);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            Int64Value.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.google.protobuf.Int64Value();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.value = value;
                            else
                                delete message.value;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            Int64Value.fromObject = function (object, _depth) {
                if (object instanceof $root.google.protobuf.Int64Value)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".google.protobuf.Int64Value: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.google.protobuf.Int64Value();
                if (object.value != null)
                    if (typeof object.value === "object" ? object.value.low || object.value.high : $Number(object.value) !== 0)
                        if ($util.Long)
                            message.value = $util.Long.fromValue(object.value, false);
                        else if (typeof object.value === "string")
                            message.value = $parseInt(object.value, 10);
                        else if (typeof object.value === "number")
                            message.value = object.value;
                        else if (typeof object.value === "object")
                            message.value = new $util.LongBits(object.value.low >>> 0, object.value.high >>> 0).toNumber();
                return message;
            };

            Int64Value.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults)
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, false);
                        object.value = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.value = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                if (message.value != null && $Object.hasOwnProperty.call(message, "value"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.value = typeof message.value === "number" ? $BigInt(message.value) : $util.Long.fromBits(message.value.low >>> 0, message.value.high >>> 0, false).toBigInt();
                    else if (typeof message.value === "number")
                        object.value = options.longs === $String ? $String(message.value) : message.value;
                    else
                        object.value = options.longs === $String ? $util.Long.prototype.toString.call(message.value) : options.longs === $Number ? new $util.LongBits(message.value.low >>> 0, message.value.high >>> 0).toNumber() : message.value;
                return object;
            };

            Int64Value.prototype.toJSON = function() {
                return Int64Value.toObject(this, $protobuf.util.toJSONOptions);
            };

            return Int64Value;
        })();

        protobuf.UInt64Value = (function() {

            const UInt64Value = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            UInt64Value.prototype.value = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            UInt64Value.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.value != null && $Object.hasOwnProperty.call(message, "value") && (typeof message.value === "object" ? message.value.low || message.value.high : message.value !== 0))
                    writer.uint32(8).uint64(message.value);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            UInt64Value.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.google.protobuf.UInt64Value();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.value = value;
                            else
                                delete message.value;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            UInt64Value.fromObject = function (object, _depth) {
                if (object instanceof $root.google.protobuf.UInt64Value)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".google.protobuf.UInt64Value: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.google.protobuf.UInt64Value();
                if (object.value != null)
                    if (typeof object.value === "object" ? object.value.low || object.value.high : $Number(object.value) !== 0)
                        if ($util.Long)
                            message.value = $util.Long.fromValue(object.value, true);
                        else if (typeof object.value === "string")
                            message.value = $parseInt(object.value, 10);
                        else if (typeof object.value === "number")
                            message.value = object.value;
                        else if (typeof object.value === "object")
                            message.value = new $util.LongBits(object.value.low >>> 0, object.value.high >>> 0).toNumber(true);
                return message;
            };

            UInt64Value.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults)
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, true);
                        object.value = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.value = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                if (message.value != null && $Object.hasOwnProperty.call(message, "value"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.value = typeof message.value === "number" ? $BigInt(message.value) : $util.Long.fromBits(message.value.low >>> 0, message.value.high >>> 0, true).toBigInt();
                    else if (typeof message.value === "number")
                        object.value = options.longs === $String ? $String(message.value) : message.value;
                    else
                        object.value = options.longs === $String ? $util.Long.prototype.toString.call(message.value) : options.longs === $Number ? new $util.LongBits(message.value.low >>> 0, message.value.high >>> 0).toNumber(true) : message.value;
                return object;
            };

            UInt64Value.prototype.toJSON = function() {
                return UInt64Value.toObject(this, $protobuf.util.toJSONOptions);
            };

            return UInt64Value;
        })();

        protobuf.Int32Value = (function() {

            const Int32Value = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            Int32Value.prototype.value = 0;

            Int32Value.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.value != null && $Object.hasOwnProperty.call(message, "value") && message.value !== 0)
                    writer.uint32(8).int32(message.value);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            Int32Value.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.google.protobuf.Int32Value();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.value = value;
                            else
                                delete message.value;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            Int32Value.fromObject = function (object, _depth) {
                if (object instanceof $root.google.protobuf.Int32Value)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".google.protobuf.Int32Value: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.google.protobuf.Int32Value();
                if (object.value != null)
                    if ($Number(object.value) !== 0)
                        message.value = object.value | 0;
                return message;
            };

            Int32Value.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults)
                    object.value = 0;
                if (message.value != null && $Object.hasOwnProperty.call(message, "value"))
                    object.value = message.value;
                return object;
            };

            Int32Value.prototype.toJSON = function() {
                return Int32Value.toObject(this, $protobuf.util.toJSONOptions);
            };

            return Int32Value;
        })();

        protobuf.UInt32Value = (function() {

            const UInt32Value = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            UInt32Value.prototype.value = 0;

            UInt32Value.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.value != null && $Object.hasOwnProperty.call(message, "value") && message.value !== 0)
                    writer.uint32(8).uint32(message.value);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            UInt32Value.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.google.protobuf.UInt32Value();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.value = value;
                            else
                                delete message.value;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            UInt32Value.fromObject = function (object, _depth) {
                if (object instanceof $root.google.protobuf.UInt32Value)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".google.protobuf.UInt32Value: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.google.protobuf.UInt32Value();
                if (object.value != null)
                    if ($Number(object.value) !== 0)
                        message.value = object.value >>> 0;
                return message;
            };

            UInt32Value.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults)
                    object.value = 0;
                if (message.value != null && $Object.hasOwnProperty.call(message, "value"))
                    object.value = message.value;
                return object;
            };

            UInt32Value.prototype.toJSON = function() {
                return UInt32Value.toObject(this, $protobuf.util.toJSONOptions);
            };

            return UInt32Value;
        })();

        protobuf.BoolValue = (function() {

            const BoolValue = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            BoolValue.prototype.value = false;

            BoolValue.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.value != null && $Object.hasOwnProperty.call(message, "value") && message.value !== false)
                    writer.uint32(8).bool(message.value);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            BoolValue.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.google.protobuf.BoolValue();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.value = value;
                            else
                                delete message.value;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            BoolValue.fromObject = function (object, _depth) {
                if (object instanceof $root.google.protobuf.BoolValue)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".google.protobuf.BoolValue: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.google.protobuf.BoolValue();
                if (object.value != null)
                    if (object.value)
                        message.value = $Boolean(object.value);
                return message;
            };

            BoolValue.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults)
                    object.value = false;
                if (message.value != null && $Object.hasOwnProperty.call(message, "value"))
                    object.value = message.value;
                return object;
            };

            BoolValue.prototype.toJSON = function() {
                return BoolValue.toObject(this, $protobuf.util.toJSONOptions);
            };

            return BoolValue;
        })();

        protobuf.StringValue = (function() {

            const StringValue = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            StringValue.prototype.value = "";

            StringValue.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.value != null && $Object.hasOwnProperty.call(message, "value") && message.value !== "")
                    writer.uint32(10).string(message.value);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            StringValue.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.google.protobuf.StringValue();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.value = value;
                            else
                                delete message.value;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            StringValue.fromObject = function (object, _depth) {
                if (object instanceof $root.google.protobuf.StringValue)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".google.protobuf.StringValue: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.google.protobuf.StringValue();
                if (object.value != null)
                    if (typeof object.value !== "string" || object.value.length)
                        message.value = $String(object.value);
                return message;
            };

            StringValue.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults)
                    object.value = "";
                if (message.value != null && $Object.hasOwnProperty.call(message, "value"))
                    object.value = message.value;
                return object;
            };

            StringValue.prototype.toJSON = function() {
                return StringValue.toObject(this, $protobuf.util.toJSONOptions);
            };

            return StringValue;
        })();

        protobuf.BytesValue = (function() {

            const BytesValue = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            BytesValue.prototype.value = $util.newBuffer([]);

            BytesValue.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.value != null && $Object.hasOwnProperty.call(message, "value") && message.value.length)
                    writer.uint32(10).bytes(message.value);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            BytesValue.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.google.protobuf.BytesValue();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.value = value;
                            else
                                delete message.value;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            BytesValue.fromObject = function (object, _depth) {
                if (object instanceof $root.google.protobuf.BytesValue)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".google.protobuf.BytesValue: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.google.protobuf.BytesValue();
                if (object.value != null)
                    if (object.value.length)
                        if (typeof object.value === "string")
                            $util.base64.decode(object.value, message.value = $util.newBuffer($util.base64.length(object.value)), 0);
                        else if (object.value.length >= 0)
                            message.value = object.value;
                return message;
            };

            BytesValue.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults)
                    if (options.bytes === $String)
                        object.value = "";
                    else {
                        object.value = [];
                        if (options.bytes !== $Array)
                            object.value = $util.newBuffer(object.value);
                    }
                if (message.value != null && $Object.hasOwnProperty.call(message, "value"))
                    object.value = options.bytes === $String ? $util.base64.encode(message.value, 0, message.value.length) : options.bytes === $Array ? $Array.prototype.slice.call(message.value) : message.value;
                return object;
            };

            BytesValue.prototype.toJSON = function() {
                return BytesValue.toObject(this, $protobuf.util.toJSONOptions);
            };

            return BytesValue;
        })();

        return protobuf;
    })();

    return google;
})();

export const pluginregistration = $root.pluginregistration = (() => {

    const pluginregistration = {};

    pluginregistration.InfoRequest = (function() {

        const InfoRequest = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        InfoRequest.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        InfoRequest.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pluginregistration.InfoRequest();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                reader.skipType(tag & 7, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        InfoRequest.fromObject = function (object, _depth) {
            if (object instanceof $root.pluginregistration.InfoRequest)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".pluginregistration.InfoRequest: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            return new $root.pluginregistration.InfoRequest();
        };

        InfoRequest.toObject = function () {
            return {};
        };

        InfoRequest.prototype.toJSON = function() {
            return InfoRequest.toObject(this, $protobuf.util.toJSONOptions);
        };

        return InfoRequest;
    })();

    pluginregistration.PluginInfo = (function() {

        const PluginInfo = function (properties) {
            this.supported_versions = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        PluginInfo.prototype.type = "";
        PluginInfo.prototype.name = "";
        PluginInfo.prototype.endpoint = "";
        PluginInfo.prototype.supported_versions = $util.emptyArray;

        PluginInfo.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.type != null && $Object.hasOwnProperty.call(message, "type") && message.type !== "")
                writer.uint32(10).string(message.type);
            if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                writer.uint32(18).string(message.name);
            if (message.endpoint != null && $Object.hasOwnProperty.call(message, "endpoint") && message.endpoint !== "")
                writer.uint32(26).string(message.endpoint);
            if (message.supported_versions != null && message.supported_versions.length)
                for (let i = 0; i < message.supported_versions.length; ++i)
                    writer.uint32(34).string(message.supported_versions[i]);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        PluginInfo.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pluginregistration.PluginInfo();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.type = value;
                        else
                            delete message.type;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.name = value;
                        else
                            delete message.name;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.endpoint = value;
                        else
                            delete message.endpoint;
                        continue;
                    }
                case 4: {
                        if (wireType !== 2)
                            break;
                        if (!(message.supported_versions && message.supported_versions.length))
                            message.supported_versions = [];
                        message.supported_versions.push(reader.stringVerify());
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        PluginInfo.fromObject = function (object, _depth) {
            if (object instanceof $root.pluginregistration.PluginInfo)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".pluginregistration.PluginInfo: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.pluginregistration.PluginInfo();
            if (object.type != null)
                if (typeof object.type !== "string" || object.type.length)
                    message.type = $String(object.type);
            if (object.name != null)
                if (typeof object.name !== "string" || object.name.length)
                    message.name = $String(object.name);
            if (object.endpoint != null)
                if (typeof object.endpoint !== "string" || object.endpoint.length)
                    message.endpoint = $String(object.endpoint);
            if (object.supported_versions) {
                if (!$Array.isArray(object.supported_versions))
                    throw $TypeError(".pluginregistration.PluginInfo.supported_versions: array expected");
                message.supported_versions = $Array(object.supported_versions.length);
                for (let i = 0; i < object.supported_versions.length; ++i)
                    message.supported_versions[i] = $String(object.supported_versions[i]);
            }
            return message;
        };

        PluginInfo.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults)
                object.supported_versions = [];
            if (options.defaults) {
                object.type = "";
                object.name = "";
                object.endpoint = "";
            }
            if (message.type != null && $Object.hasOwnProperty.call(message, "type"))
                object.type = message.type;
            if (message.name != null && $Object.hasOwnProperty.call(message, "name"))
                object.name = message.name;
            if (message.endpoint != null && $Object.hasOwnProperty.call(message, "endpoint"))
                object.endpoint = message.endpoint;
            if (message.supported_versions && message.supported_versions.length) {
                object.supported_versions = $Array(message.supported_versions.length);
                for (let j = 0; j < message.supported_versions.length; ++j)
                    object.supported_versions[j] = message.supported_versions[j];
            }
            return object;
        };

        PluginInfo.prototype.toJSON = function() {
            return PluginInfo.toObject(this, $protobuf.util.toJSONOptions);
        };

        return PluginInfo;
    })();

    pluginregistration.RegistrationStatus = (function() {

        const RegistrationStatus = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        RegistrationStatus.prototype.plugin_registered = false;
        RegistrationStatus.prototype.error = "";

        RegistrationStatus.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.plugin_registered != null && $Object.hasOwnProperty.call(message, "plugin_registered") && message.plugin_registered !== false)
                writer.uint32(8).bool(message.plugin_registered);
            if (message.error != null && $Object.hasOwnProperty.call(message, "error") && message.error !== "")
                writer.uint32(18).string(message.error);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        RegistrationStatus.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pluginregistration.RegistrationStatus();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.bool())
                            message.plugin_registered = value;
                        else
                            delete message.plugin_registered;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.error = value;
                        else
                            delete message.error;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        RegistrationStatus.fromObject = function (object, _depth) {
            if (object instanceof $root.pluginregistration.RegistrationStatus)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".pluginregistration.RegistrationStatus: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.pluginregistration.RegistrationStatus();
            if (object.plugin_registered != null)
                if (object.plugin_registered)
                    message.plugin_registered = $Boolean(object.plugin_registered);
            if (object.error != null)
                if (typeof object.error !== "string" || object.error.length)
                    message.error = $String(object.error);
            return message;
        };

        RegistrationStatus.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                object.plugin_registered = false;
                object.error = "";
            }
            if (message.plugin_registered != null && $Object.hasOwnProperty.call(message, "plugin_registered"))
                object.plugin_registered = message.plugin_registered;
            if (message.error != null && $Object.hasOwnProperty.call(message, "error"))
                object.error = message.error;
            return object;
        };

        RegistrationStatus.prototype.toJSON = function() {
            return RegistrationStatus.toObject(this, $protobuf.util.toJSONOptions);
        };

        return RegistrationStatus;
    })();

    pluginregistration.RegistrationStatusResponse = (function() {

        const RegistrationStatusResponse = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        RegistrationStatusResponse.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        RegistrationStatusResponse.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pluginregistration.RegistrationStatusResponse();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                reader.skipType(tag & 7, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        RegistrationStatusResponse.fromObject = function (object, _depth) {
            if (object instanceof $root.pluginregistration.RegistrationStatusResponse)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".pluginregistration.RegistrationStatusResponse: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            return new $root.pluginregistration.RegistrationStatusResponse();
        };

        RegistrationStatusResponse.toObject = function () {
            return {};
        };

        RegistrationStatusResponse.prototype.toJSON = function() {
            return RegistrationStatusResponse.toObject(this, $protobuf.util.toJSONOptions);
        };

        return RegistrationStatusResponse;
    })();

    return pluginregistration;
})();

export {
  $root as default
};
