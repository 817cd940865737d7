// A Stryker "ignorer" plugin: no mutant in an n8n description, the parameters the editor shows (the
// issue excludes them; a changed display name or default is not a wrong line a test of behaviour
// can catch). A description is any declaration typed INodeProperties, INodePropertyOptions or
// INodeTypeDescription (lists too), a function that returns one, and `description =
// updateDisplayOptions(...)`. Ignored mutants count in no score.
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

const DESCRIPTION_TYPES = new Set([
	'INodeProperties',
	'INodePropertyOptions',
	'INodeTypeDescription',
]);

/** The type named by a TS annotation, through arrays: `INodeProperties[]` -> INodeProperties. */
function typeName(annotation) {
	let type = annotation?.typeAnnotation;
	while (type?.type === 'TSArrayType') type = type.elementType;
	return type?.type === 'TSTypeReference' ? type.typeName.name : undefined;
}

function isDescription(node) {
	switch (node.type) {
		case 'VariableDeclarator':
			return (
				DESCRIPTION_TYPES.has(typeName(node.id.typeAnnotation)) ||
				(node.init?.type === 'CallExpression' && node.init.callee.name === 'updateDisplayOptions')
			);
		case 'ClassProperty':
			return DESCRIPTION_TYPES.has(typeName(node.typeAnnotation));
		case 'FunctionDeclaration':
			return DESCRIPTION_TYPES.has(typeName(node.returnType));
		default:
			return false;
	}
}

export const strykerPlugins = [
	declareValuePlugin(PluginKind.Ignore, 'n8nDescriptions', {
		shouldIgnore(path) {
			return isDescription(path.node)
				? 'n8n description (editor parameters), excluded from mutation testing'
				: undefined;
		},
	}),
];
